import Glibc
import ParleyWire
import Synchronization
import Testing

@testable import ParleyNet

/// Starts a server with a few routes on a fresh group; the caller shuts the group down.
func startTestServer(
    backend: SelectorBackend = .epoll, threads: Int = 2,
    configure: (inout HTTPRoutes) -> Void = { _ in },
    configuration: HTTPServerConfiguration = HTTPServerConfiguration()
) throws -> (EventLoopGroup, HTTPServer, Int) {
    let group = try EventLoopGroup(threads: threads, backend: backend, logger: .silent)
    var routes = HTTPRoutes()
    routes.get("/healthz") { _, responder in responder.respond(.json("{\"status\":\"ok\"}")) }
    routes.post("/echo", maxBodySize: 1024) { request, responder in responder.respond(HTTPResponse(body: request.body)) }
    routes.get("/users/{id}") { request, responder in
        responder.respond(.text("user=\(request.parameter("id") ?? "?") q=\(request.query("q") ?? "")"))
    }
    routes.get("/later") { request, responder in
        let delay = Int(request.query("ms") ?? "0") ?? 0
        let id = request.query("id") ?? ""
        group.loops[group.loops.count - 1].schedule(after: .milliseconds(delay)) { responder.respond(.text("id=\(id)")) }
    }
    routes.get("/forgotten") { _, _ in }
    configure(&routes)
    let server = HTTPServer(group: group, configuration: configuration, routes: routes)
    let address = try server.start()
    return (group, server, address.port)
}

@Suite("HTTP server", .serialized)
struct HTTPServerTests {
    @Test("keep-alive and pipelining keep answers in request order", arguments: SelectorBackend.allCases)
    func pipelining(backend: SelectorBackend) throws {
        let (group, _, port) = try startTestServer(backend: backend)
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        client.send(
            "GET /later?ms=200&id=1 HTTP/1.1\r\nHost: t\r\n\r\n"
                + "GET /later?ms=0&id=2 HTTP/1.1\r\nHost: t\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
                + "GET /users/42?q=a%20b HTTP/1.1\r\nHost: t\r\n\r\n")
        let text = client.read(until: "user=42", times: 1)
        let order = ["id=1", "id=2", "abcde", "user=42 q=a b"].map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        // The connection is still usable afterwards (keep-alive).
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let last = String(decoding: client.readToEnd(), as: UTF8.self)
        #expect(last.hasPrefix("HTTP/1.1 200 OK"))
        #expect(last.contains("Connection: close"))
    }

    @Test("parse failures get their status and a JSON error, then close; others are unaffected")
    func errorsAnswered() throws {
        let (group, _, port) = try startTestServer()
        defer { group.shutdownAndWait() }
        let cases: [(String, String)] = [
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: t\r\n\r\n", "414"),
            ("GET / HTTP/1.1\r\nHost: t\r\nX: " + String(repeating: "b", count: 40000) + "\r\n\r\n", "431"),
            ("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n", "413"),
            ("NOT HTTP AT ALL\r\n\r\n", "400"),
            ("GET / HTTP/3.0\r\nHost: t\r\n\r\n", "505"),
            ("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: br, chunked\r\n\r\n", "501"),
            ("GET /%zz HTTP/1.1\r\nHost: t\r\n\r\n", "400"),
            ("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: fancy\r\nContent-Length: 1\r\n\r\nx", "417")
        ]
        let healthy = try RawClient(port: port)
        for (request, status) in cases {
            let client = try RawClient(port: port)
            client.send(request)
            let answer = String(decoding: client.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(status): \(answer.prefix(80))")
            #expect(answer.contains("Connection: close"))
            #expect(answer.contains("{\"error\":{\"code\":\""))
            healthy.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(healthy.read(until: "{\"status\":\"ok\"}").contains("200 OK"))
        }
    }

    @Test("unknown paths and methods get 404 and 405 with Allow, and the connection stays open")
    func notFoundAndMethodNotAllowed() throws {
        let (group, _, port) = try startTestServer()
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        client.send("GET /nope HTTP/1.1\r\nHost: t\r\n\r\nDELETE /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        let text = client.read(until: "method_not_allowed")
        #expect(text.hasPrefix("HTTP/1.1 404 Not Found"))
        #expect(text.contains("HTTP/1.1 405 Method Not Allowed"))
        #expect(text.contains("Allow: GET"))
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.read(until: "{\"status\":\"ok\"}").contains("200 OK"))
    }

    @Test("100-continue: interim answer when the route takes the body, 413 without it when too big")
    func expectContinue() throws {
        let (group, _, port) = try startTestServer()
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(client.read(until: "\r\n\r\n") == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("ping")
        #expect(client.read(until: "ping").contains("200 OK"))
        let refused = try RawClient(port: port)
        refused.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4096\r\n\r\n")
        let answer = String(decoding: refused.readToEnd(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 413 "))
        #expect(!answer.contains("100 Continue"))
    }

    @Test("a handler that never answers still produces a 500")
    func droppedResponder() throws {
        let (group, _, port) = try startTestServer()
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        client.send("GET /forgotten HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: client.readToEnd(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 500 "))
        #expect(answer.contains("handler_dropped_request"))
    }

    @Test("graceful shutdown lets a request in progress finish with Connection: close")
    func gracefulShutdownHTTP() throws {
        let started = Collector<Bool>()
        let (group, server, port) = try startTestServer { routes in
            routes.get("/hold") { _, responder in
                started.append(true)
                EventLoop.current!.schedule(after: .milliseconds(200)) { responder.respond(.text("id=slow")) }
            }
        }
        defer { group.shutdownAndWait() }
        let idle = try RawClient(port: port)
        idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = idle.read(until: "{\"status\":\"ok\"}")
        let busy = try RawClient(port: port)
        busy.send("GET /hold HTTP/1.1\r\nHost: t\r\n\r\n")
        let done = Collector<Bool>()
        #expect(started.wait(count: 1) == [true])
        server.shutdown(gracePeriod: .seconds(5)) { done.append(true) }
        let answer = String(decoding: busy.readToEnd(), as: UTF8.self)
        busy.finishSending()
        #expect(answer.contains("id=slow"))
        #expect(answer.contains("Connection: close"))
        #expect(idle.peerClosed())
        idle.finishSending()
        #expect(done.wait(count: 1) == [true])
        #expect((try? RawClient(port: port)) == nil)
    }
}

@Suite("HTTP slow clients")
struct HTTPSlowClientTests {
    @Test("a request head trickling in forever gets 408, though bytes keep arriving")
    func slowloris() throws {
        var configuration = HTTPServerConfiguration()
        configuration.idleTimeout = .seconds(30)
        configuration.requestHeadTimeout = .milliseconds(150)
        let (group, _, port) = try startTestServer(configuration: configuration)
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n")
        Thread.detach {
            for _ in 0..<100 {
                client.send("X-Slow: 1\r\n")
                usleep(20_000)
            }
        }
        let answer = String(decoding: client.readToEnd(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 408 "))
        #expect(answer.contains("request_timeout"))
    }

    @Test("a complete head followed by silence is left to the idle timeout")
    func completeHeadNoTimer() throws {
        var configuration = HTTPServerConfiguration()
        configuration.requestHeadTimeout = .milliseconds(50)
        let (group, _, port) = try startTestServer(configuration: configuration)
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\n")
        usleep(150_000)  // longer than the head timeout: the head is complete, so no 408
        client.send("abc")
        #expect(client.read(until: "abc").hasPrefix("HTTP/1.1 200 OK"))
    }
}

@Suite("HTTP graceful shutdown")
struct HTTPShutdownTests {
    @Test("a request whose body is still arriving at shutdown completes")
    func bodyInFlight() throws {
        let (group, server, port) = try startTestServer()
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        // 100-continue proves the head has been read before shutdown starts.
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n")
        #expect(client.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue"))
        client.send("hello")
        let done = Collector<Bool>()
        server.shutdown(gracePeriod: .seconds(10)) { done.append(true) }
        usleep(50_000)
        client.send("world")
        let answer = String(decoding: client.readToEnd(), as: UTF8.self)
        client.finishSending()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        #expect(answer.contains("Connection: close"))
        #expect(answer.hasSuffix("helloworld"))
        #expect(done.wait(count: 1) == [true])
    }
}
