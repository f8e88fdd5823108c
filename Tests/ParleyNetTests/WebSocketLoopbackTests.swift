import Glibc
import ParleyWire
import Synchronization
import Testing

@testable import ParleyNet

/// An echo endpoint at /ws: text "close:<code>" closes with that code; "flood" sends a
/// megabyte at a time until the socket's outbound bound trips.
func addEchoSocket(
    _ routes: inout HTTPRoutes, options: WebSocketRouteOptions = WebSocketRouteOptions(),
    overflows: Collector<UInt16>? = nil
) {
    routes.webSocket(
        "/ws", options: options,
        shouldUpgrade: { request, _ in
            request.query("deny") == nil ? nil : .error(HTTPStatus(403), code: "forbidden", message: "denied")
        }
    ) { _, socket in
        socket.onMessage = { socket, message in
            switch message {
            case .text(let text) where text.hasPrefix("close:"):
                socket.close(code: WebSocketCloseCode(UInt16(text.dropFirst(6)) ?? 1000), reason: "asked")
            case .text("flood"):
                let frame = WebSocket.serverBinaryFrame([UInt8](repeating: 7, count: 256 * 1024))
                for _ in 0..<64 { socket.send(shared: frame) }
            case .text(let text) where text.hasPrefix("utf8:"):
                socket.send(utf8Text: Array(text.utf8))
            case .text(let text):
                socket.send(text: text)
            case .binary(let bytes):
                socket.send(binary: bytes)
            }
        }
        if let overflows {
            socket.onClose = { _, code, _ in if code == WebSocketCloseCode(4100) { overflows.append(code.rawValue) } }
        }
    }
}

/// Collects what a client socket sees as strings: "text:..", "binary:<count>", "pong:..", "close:<code>".
final class ClientProbe: Sendable {
    let events = Collector<String>()
    let socket = Mutex<WebSocket?>(nil)

    func connect(port: Int, loop: EventLoop, path: String = "/ws", configuration: WebSocketClient.Configuration = .init()) {
        WebSocketClient.connect(to: "ws://127.0.0.1:\(port)\(path)", configuration: configuration, on: loop) { [self] result in
            switch result {
            case .failure(let error):
                events.append("error:\(error.code)")
            case .success(let socket):
                self.socket.withLock { $0 = socket }
                socket.onMessage = { [self] _, message in
                    switch message {
                    case .text(let text): events.append("text:\(text)")
                    case .binary(let bytes): events.append("binary:\(bytes.count)")
                    }
                }
                socket.onPong = { [self] _, payload in events.append("pong:\(String(decoding: payload, as: UTF8.self))") }
                socket.onClose = { [self] _, code, _ in events.append("close:\(code.rawValue)") }
                events.append("open")
            }
        }
    }

    var ws: WebSocket { socket.withLock { $0! } }
}

@Suite("WebSocket loopback", .serialized)
struct WebSocketLoopbackTests {
    @Test("our client and server: text, binary, fragments, ping, close", arguments: SelectorBackend.allCases, [false, true])
    func echo(backend: SelectorBackend, compressed: Bool) throws {
        var options = WebSocketRouteOptions(maxMessageSize: 1 << 21)
        if compressed { options.deflate = WebSocketDeflateOptions() }
        let (group, _, port) = try startTestServer(backend: backend) { addEchoSocket(&$0, options: options) }
        defer { group.shutdownAndWait() }
        let probe = ClientProbe()
        var configuration = WebSocketClient.Configuration(maxMessageSize: 1 << 21)
        if compressed { configuration.deflate = WebSocketDeflateOptions() }
        probe.connect(port: port, loop: group.loops[0], configuration: configuration)
        #expect(probe.events.wait(count: 1) == ["open"])
        #expect(probe.ws.isCompressed == compressed)
        probe.ws.send(text: "hello ✓")
        probe.ws.send(utf8Text: Array("utf8:✓".utf8))
        probe.ws.send(binary: [UInt8](repeating: 1, count: 1 << 20))
        probe.ws.send(fragments: [Array("a".utf8), Array("b".utf8), Array("c".utf8)], binary: false)
        probe.ws.ping(Array("p".utf8))
        probe.ws.send(text: "close:1000")
        let events = probe.events.wait(count: 7)
        #expect(events == ["open", "text:hello ✓", "text:utf8:✓", "binary:1048576", "text:abc", "pong:p", "close:1000"])
    }

    @Test("many clients across loops all get their echoes")
    func manyClients() throws {
        let (group, _, port) = try startTestServer { addEchoSocket(&$0) }
        defer { group.shutdownAndWait() }
        let probes = (0..<50).map { _ in ClientProbe() }
        for (i, probe) in probes.enumerated() { probe.connect(port: port, loop: group.loops[i % 2]) }
        for probe in probes { #expect(probe.events.wait(count: 1) == ["open"]) }
        for (i, probe) in probes.enumerated() { probe.ws.send(text: "n\(i)") }
        for (i, probe) in probes.enumerated() { #expect(probe.events.wait(count: 2).last == "text:n\(i)") }
    }

    @Test("refused and failed handshakes are reported to the client")
    func refusedHandshake() throws {
        let (group, _, port) = try startTestServer { addEchoSocket(&$0) }
        defer { group.shutdownAndWait() }
        let denied = ClientProbe()
        denied.connect(port: port, loop: group.loops[0], path: "/ws?deny=1")
        #expect(denied.events.wait(count: 1) == ["error:websocket.handshake.unexpected_status"])
        let missing = ClientProbe()
        missing.connect(port: port, loop: group.loops[0], path: "/missing")
        #expect(missing.events.wait(count: 1) == ["error:websocket.handshake.unexpected_status"])
        // A plain GET on a WebSocket route is a handshake error, answered over HTTP.
        let raw = try RawClient(port: port)
        raw.send("GET /ws HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: raw.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 400 "))
    }

    @Test("a client that does not read trips the outbound bound; others are unaffected")
    func slowConsumer() throws {
        let overflows = Collector<UInt16>()
        let options = WebSocketRouteOptions(maxOutboundBytes: 1 << 20, overflowCloseCode: WebSocketCloseCode(4100))
        let (group, _, port) = try startTestServer { addEchoSocket(&$0, options: options, overflows: overflows) }
        defer { group.shutdownAndWait() }
        // A raw client that completes the handshake, asks for a flood, and never reads.
        let stalled = try RawClient(port: port)
        stalled.send(
            "GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        _ = stalled.read(until: "\r\n\r\n")
        stalled.send(maskedTextFrame("flood"))
        #expect(overflows.wait(count: 1) == [4100])
        let healthy = ClientProbe()
        healthy.connect(port: port, loop: group.loops[0])
        #expect(healthy.events.wait(count: 1) == ["open"])
        healthy.ws.send(text: "fine")
        #expect(healthy.events.wait(count: 2) == ["open", "text:fine"])
    }

    @Test("malformed frames are answered with close codes and the server keeps serving")
    func badFrames() throws {
        let (group, _, port) = try startTestServer { addEchoSocket(&$0) }
        defer { group.shutdownAndWait() }
        let bad: [([UInt8], UInt16)] = [
            ([0x81, 0x02] + Array("hi".utf8), 1002),  // unmasked
            (maskedFrame(opcode: 0x1, [0xFF, 0xFE]), 1007),  // invalid UTF-8
            (maskedFrame(opcode: 0x3, []), 1002),  // reserved opcode
            (maskedFrame(opcode: 0x2, [UInt8](repeating: 0, count: 70_000)), 1009)  // over 64 KiB
        ]
        for (frame, code) in bad {
            let client = try RawClient(port: port)
            client.send(
                "GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            _ = client.read(until: "\r\n\r\n")
            client.send(frame)
            let answer = client.read(count: 4)
            #expect(answer.count == 4 && answer[0] == 0x88 && (UInt16(answer[2]) << 8 | UInt16(answer[3])) == code)
        }
        let healthy = ClientProbe()
        healthy.connect(port: port, loop: group.loops[1])
        #expect(healthy.events.wait(count: 1) == ["open"])
        healthy.ws.send(text: "ok")
        #expect(healthy.events.wait(count: 2).last == "text:ok")
    }

    @Test("graceful shutdown closes WebSockets with 1001", arguments: SelectorBackend.allCases)
    func gracefulShutdown(backend: SelectorBackend) throws {
        let (serverGroup, server, port) = try startTestServer(backend: backend) { addEchoSocket(&$0) }
        defer { serverGroup.shutdownAndWait() }
        let clientGroup = try EventLoopGroup(threads: 1, backend: backend, logger: .silent)
        defer { clientGroup.shutdownAndWait() }
        let probes = (0..<5).map { _ in ClientProbe() }
        for probe in probes { probe.connect(port: port, loop: clientGroup.loops[0]) }
        for probe in probes { #expect(probe.events.wait(count: 1) == ["open"]) }
        let finished = Collector<Bool>()
        server.shutdown(gracePeriod: .seconds(5)) { finished.append(true) }
        for probe in probes { #expect(probe.events.wait(count: 2) == ["open", "close:1001"]) }
        #expect(finished.wait(count: 1) == [true])
    }

    @Test("server heartbeat closes a peer that never answers pings")
    func heartbeatTimeout() throws {
        let options = WebSocketRouteOptions(pingInterval: .milliseconds(50))
        let closes = Collector<UInt16>()
        let (group, _, port) = try startTestServer { routes in
            routes.webSocket("/ws", options: options) { _, socket in
                socket.onClose = { _, code, _ in closes.append(code.rawValue) }
            }
        }
        defer { group.shutdownAndWait() }
        let silent = try RawClient(port: port)
        silent.send(
            "GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        _ = silent.read(until: "\r\n\r\n")
        // Pings arrive (0x89) but are never answered: the server gives up with 1006.
        #expect(closes.wait(count: 1) == [1006])
        #expect(silent.peerClosed())
    }
}

func maskedFrame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
    var frame: [UInt8] = [0x80 | opcode]
    let key: [UInt8] = [1, 2, 3, 4]
    if payload.count < 126 {
        frame.append(0x80 | UInt8(payload.count))
    } else if payload.count < 65536 {
        frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
        frame.append(0x80 | 127)
        for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
    }
    frame += key
    for (i, byte) in payload.enumerated() { frame.append(byte ^ key[i % 4]) }
    return frame
}

func maskedTextFrame(_ text: String) -> [UInt8] { maskedFrame(opcode: 0x1, Array(text.utf8)) }
