// A network peer for the Python interop tests.
//
//   ParleyTestPeer serve --port P [--host H] [--max-message N] [--deflate on|off] [--backend epoll|poll]
//     HTTPServer with: WebSocket echo at /echo ("close:<code>:<reason>" makes the server
//     close with that code), GET /healthz, POST /upload (answers length and sha256 of the
//     body, up to 64 MiB), GET /slow?ms=N&id=X (answers X after N ms from another thread),
//     GET /stream?n=N (N chunks), POST /echo-body. Prints "listening on HOST:PORT";
//     SIGINT/SIGTERM shut it down gracefully (WebSockets get 1001) and it exits 0.
//
//   ParleyTestPeer client --url ws://... [--deflate on|off]
//     Our WebSocketClient against another server: sends text, binary, 1 MiB binary, a
//     fragmented text and a ping, prints everything it receives as JSON lines, closes 1000.

import Glibc
import ParleyNet
import ParleyWire
import Synchronization

func emit(_ line: String) {
    print(line)
    fflush(nil)
}

func fail(_ message: String) -> Never {
    let line = "ParleyTestPeer: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}

func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func number(_ text: String, _ flag: String) -> Int {
    guard let value = Int(text) else { fail("\(flag) needs a number, got \(text)") }
    return value
}

struct Options {
    var mode = ""
    var host = "127.0.0.1"
    var port = 0
    var maxMessage = WebSocketOptions.defaultMaxMessageSize
    var deflate = true
    var url = ""
    var backend = SelectorBackend.platformDefault

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        guard let mode = rest.popFirst() else { fail("usage: ParleyTestPeer serve|client ...") }
        self.mode = mode
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--host": host = value
            case "--port": port = number(value, flag)
            case "--max-message": maxMessage = number(value, flag)
            case "--deflate": deflate = value == "on"
            case "--url": url = value
            case "--backend":
                guard let parsed = SelectorBackend(rawValue: value) else { fail("bad --backend \(value)") }
                backend = parsed
            default: fail("unknown flag \(flag)")
            }
        }
    }
}

// MARK: serve

func serve(_ options: Options) -> Never {
    let group: EventLoopGroup
    do { group = try EventLoopGroup(backend: options.backend) } catch { fail("\(error)") }
    var routes = HTTPRoutes()
    routes.get("/healthz") { _, responder in
        responder.respond(.json("{\"status\":\"ok\"}"))
    }
    routes.post("/upload", maxBodySize: 64 << 20) { request, responder in
        let digest = Digest.sha256(request.body).hexString
        responder.respond(.json("{\"length\":\(request.body.count),\"sha256\":\"\(digest)\"}"))
    }
    routes.post("/echo-body", maxBodySize: 1 << 20) { request, responder in
        responder.respond(HTTPResponse(body: request.body))
    }
    routes.get("/slow") { request, responder in
        let delay = Int(request.query("ms") ?? "0") ?? 0
        let id = request.query("id") ?? ""
        // Answer from a different thread after the delay, like a database-backed handler.
        let other = group.loops[(request.remoteAddress?.port ?? 0) % group.loops.count]
        other.schedule(after: .milliseconds(delay)) { responder.respond(.text("id=\(id)")) }
    }
    routes.get("/stream") { request, responder in
        let count = Int(request.query("n") ?? "3") ?? 3
        let stream = responder.stream(HTTPResponseHead(status: .ok, headers: ["Content-Type": "text/plain"]))
        for i in 0..<count { stream.write(Array("chunk \(i)\n".utf8)) }
        stream.finish()
    }
    var wsOptions = WebSocketRouteOptions(maxMessageSize: options.maxMessage)
    wsOptions.maxOutboundBytes = max(1 << 20, options.maxMessage * 4)
    if options.deflate { wsOptions.deflate = WebSocketDeflateOptions() }
    routes.webSocket("/echo", options: wsOptions) { _, socket in
        socket.onMessage = { socket, message in
            switch message {
            case .text(let text):
                if text.hasPrefix("close:") {
                    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                    let code = parts.count > 1 ? UInt16(parts[1]) ?? 1000 : 1000
                    socket.close(code: WebSocketCloseCode(code), reason: parts.count > 2 ? String(parts[2]) : "")
                } else {
                    socket.send(text: text)
                }
            case .binary(let bytes):
                socket.send(binary: bytes)
            }
        }
    }
    let server = HTTPServer(
        group: group,
        configuration: HTTPServerConfiguration(host: options.host, port: options.port),
        routes: routes)
    do {
        let address = try server.start()
        try ShutdownSignals.install(on: group.loops[0]) { _ in
            server.shutdown(gracePeriod: .seconds(5)) { group.shutdown() }
        }
        emit("listening on \(address.host):\(address.port)")
    } catch {
        fail("\(error)")
    }
    group.join()
    emit("shutdown complete")
    exit(0)
}

// MARK: client

func runClient(_ options: Options) -> Never {
    let group: EventLoopGroup
    do { group = try EventLoopGroup(threads: 1, backend: options.backend) } catch { fail("\(error)") }
    var configuration = WebSocketClient.Configuration(maxMessageSize: 4 << 20)
    if options.deflate { configuration.deflate = WebSocketDeflateOptions() }
    let exitCode = Atomic<Int32>(0)
    let big = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    WebSocketClient.connect(to: options.url, configuration: configuration, on: group.loops[0]) { result in
        switch result {
        case .failure(let error):
            emit("{\"event\":\"error\",\"code\":\(jsonString(error.code)),\"message\":\(jsonString(error.description))}")
            exitCode.store(1, ordering: .relaxed)
            group.shutdown()
        case .success(let socket):
            emit("{\"event\":\"open\",\"compressed\":\(socket.isCompressed)}")
            var received = 0
            let expected = 4
            var gotPong = false
            func finishIfDone() {
                if received == expected && gotPong { socket.close(code: .normalClosure, reason: "done") }
            }
            socket.onMessage = { _, message in
                switch message {
                case .text(let text):
                    emit("{\"event\":\"text\",\"data\":\(jsonString(text))}")
                case .binary(let bytes):
                    emit("{\"event\":\"binary\",\"length\":\(bytes.count),\"sha256\":\"\(Digest.sha256(bytes).hexString)\"}")
                }
                received += 1
                finishIfDone()
            }
            socket.onPong = { _, payload in
                emit("{\"event\":\"pong\",\"data\":\(jsonString(String(decoding: payload, as: UTF8.self)))}")
                gotPong = true
                finishIfDone()
            }
            socket.onClose = { _, code, reason in
                emit("{\"event\":\"close\",\"code\":\(code.rawValue),\"reason\":\(jsonString(reason))}")
                group.shutdown()
            }
            socket.send(text: "hello from parley")
            socket.send(binary: Array(0...255))
            socket.send(binary: big)
            socket.send(fragments: [Array("frag-1 ".utf8), Array("frag-2 ".utf8), Array("frag-3".utf8)], binary: false)
            socket.ping(Array("are you there".utf8))
        }
    }
    group.join()
    exit(exitCode.load(ordering: .relaxed))
}

let options = Options(CommandLine.arguments)
switch options.mode {
case "serve": serve(options)
case "client": runClient(options)
default: fail("unknown mode \(options.mode); use serve or client")
}
