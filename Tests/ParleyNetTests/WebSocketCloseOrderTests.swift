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
        client.send(
            "GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
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

    @Test("a delegate hears nothing after the close, and is let go at the close")
    func delegateHearsNothingAfterClose() throws {
        let seen = Collector<String>()
        let released = Collector<String>()
        let options = WebSocketRouteOptions(maxOutboundBytes: 64 * 1024, overflowCloseCode: WebSocketCloseCode(4100))
        let (group, _, port) = try startTestServer { routes in
            routes.webSocket("/ws", options: options) { _, socket in
                socket.delegate = RecordingDelegate(seen: seen, released: released)
            }
        }
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        var small: Int32 = 4096
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        client.send(
            "GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        _ = client.read(until: "\r\n\r\n")
        var burst: [UInt8] = []
        for _ in 0..<400 { burst += maskedTextFrame("more") }
        client.send(burst)
        let events = waitForClose(seen)
        let close = try #require(events.firstIndex { $0.hasPrefix("close:") })
        #expect(events[close] == "close:4100")
        #expect(events[(close + 1)...].isEmpty)
        #expect(released.wait(count: 1) == ["released"], "the socket let go of its delegate at the close")
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

/// Answers every message with 256 KiB and records what it hears; says when it is freed.
private final class RecordingDelegate: WebSocketDelegate {
    let seen: Collector<String>
    let released: Collector<String>
    private let reply = WebSocket.serverBinaryFrame([UInt8](repeating: 1, count: 64 * 1024))

    init(seen: Collector<String>, released: Collector<String>) {
        self.seen = seen
        self.released = released
    }

    deinit { released.append("released") }

    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        seen.append("message")
        for _ in 0..<4 { socket.send(shared: reply) }
    }

    func webSocket(_ socket: WebSocket, didCloseWith code: WebSocketCloseCode, reason: String) {
        seen.append("close:\(code.rawValue)")
    }
}
