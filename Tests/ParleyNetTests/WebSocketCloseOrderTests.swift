import Glibc
import ParleyWire
import Testing
@testable import ParleyNet

/// Once a socket has reported its close, none of its other callbacks may run: the layer
/// above frees what they capture when it hears the close.
@Suite("WebSocket close order", .serialized)
struct WebSocketCloseOrderTests {
    @Test("frames after an overflow close in the same read reach no callback")
    func noMessageAfterClose() throws {
        let seen = Collector<String>()
        let options = WebSocketRouteOptions(maxOutboundBytes: 64 * 1024, overflowCloseCode: WebSocketCloseCode(4100))
        let (group, _, port) = try startTestServer { routes in
            routes.webSocket("/ws", options: options) { _, socket in
                let reply = WebSocket.serverBinaryFrame([UInt8](repeating: 1, count: 64 * 1024))
                socket.onMessage = { socket, _ in
                    seen.append("message")
                    for _ in 0..<4 { socket.send(shared: reply) }
                }
                socket.onClose = { _, code, _ in seen.append("close:\(code.rawValue)") }
            }
        }
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        var small: Int32 = 4096
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        _ = client.read(until: "\r\n\r\n")
        // Each message asks for 256 KiB of answers and the client reads none of them, so the
        // queue overflows while most of these frames are still unhandled in one read.
        var burst: [UInt8] = []
        for _ in 0..<400 { burst += maskedTextFrame("more") }
        client.send(burst)
        let events = waitForClose(seen)
        let close = try #require(events.firstIndex { $0.hasPrefix("close:") })
        #expect(events[close] == "close:4100")
        #expect(events[(close + 1)...].isEmpty, "callbacks ran after the close: \(events[(close + 1)...].prefix(3))")
        #expect(events.count < 401)
    }

    private func waitForClose(_ seen: Collector<String>) -> [String] {
        for count in 1...401 {
            let events = seen.wait(count: count, guardSeconds: 5)
            if events.count < count { return events }
            if events.contains(where: { $0.hasPrefix("close:") }) {
                // Whatever would still follow arrives within the same loop pass.
                usleep(200_000)
                return seen.snapshot
            }
        }
        return seen.snapshot
    }
}
