import ParleyNet
import ParleyWire
import Synchronization
import Testing

@testable import ParleyKit

/// A raw HTTP/1.1 server on loopback whose answers depend on the path, to see what the
/// client does with each kind of connection ending. Every answer's body is the client's
/// port on that connection, so a test can tell which connection carried a request.
///
/// - `/port`: answered, the connection kept alive.
/// - `/drop`: answered when first on its connection; later on a connection, the server
///   resets it without answering (as a server that closed an idle connection just then).
/// - `/close`: answered with `Connection: close`, then closed.
/// - `/eof`: answered with a body framed by the end of the connection.
/// - `/hang…`: never answered (counted in ``hangs``).
final class KeepAliveTestServer {
    let group: EventLoopGroup
    let server: TCPServer
    private let hung = HangCount()

    /// `/hang` requests received, shared with the loop's handlers.
    final class HangCount: Sendable {
        let value = Mutex(0)
    }

    init() throws {
        group = try EventLoopGroup(threads: 1, logger: .silent)
        let hung = self.hung
        server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = Handler(hung: hung)
        }
    }

    /// `/hang` requests received.
    var hangs: Int { hung.value.withLock { $0 } }

    var url: String { "http://127.0.0.1:\(server.localAddress.port)" }

    func stop() {
        server.stop()
        group.shutdownAndWait()
    }

    private final class Handler: ConnectionHandler {
        private var buffer: [UInt8] = []
        private var answered = 0
        private let hung: HangCount

        init(hung: HangCount) { self.hung = hung }

        func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
            buffer.append(contentsOf: bytes)
            while let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end)
                guard respond(to: head, on: connection) else { return }
            }
        }

        private func headEnd() -> Int? {
            guard buffer.count >= 4 else { return nil }
            for index in 0...(buffer.count - 4)
            where buffer[index] == 13 && buffer[index + 1] == 10
                && buffer[index + 2] == 13 && buffer[index + 3] == 10
            { return index + 4 }
            return nil
        }

        /// Answers one request; false when the connection is done.
        private func respond(to head: String, on connection: Connection) -> Bool {
            let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let port = String(connection.remoteAddress?.port ?? 0)
            defer { answered += 1 }
            switch path {
            case "/drop" where answered > 0:
                connection.abort(NetError(.connectionReset, "dropped"))
                return false
            case "/close":
                _ = connection.write(
                    Array("HTTP/1.1 200 OK\r\nContent-Length: \(port.utf8.count)\r\nConnection: close\r\n\r\n\(port)".utf8))
                connection.close()
                return false
            case _ where path.hasPrefix("/hang"):
                hung.value.withLock { $0 += 1 }
                return true
            case "/eof":
                _ = connection.write(Array("HTTP/1.1 200 OK\r\n\r\n\(port)".utf8))
                connection.close()
                return false
            default:
                _ = connection.write(Array("HTTP/1.1 200 OK\r\nContent-Length: \(port.utf8.count)\r\n\r\n\(port)".utf8))
                return true
            }
        }
    }
}

@Suite struct SocketHTTPTransportTests {
    func port(_ transport: SocketHTTPTransport, _ url: String, method: String = "GET") async throws -> String {
        let response = try await transport.send(HTTPRequestMessage(method: method, url: url))
        #expect(response.status == 200)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        // Reuse is the point here, not expiry: an idle bound far above any scheduling stall of
        // a loaded machine (the default 20 s once ran out between two requests).
        let transport = SocketHTTPTransport(idleConnectionTimeout: .seconds(600))
        var ports: [String] = []
        for _ in 0..<5 { ports.append(try await port(transport, server.url + "/port")) }
        #expect(Set(ports).count == 1)
        #expect(transport.idleConnectionCount == 1)
    }

    @Test func withoutKeepAliveEveryRequestOpensAConnection() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        let transport = SocketHTTPTransport(maxIdleConnections: 0)
        var ports: [String] = []
        for _ in 0..<3 { ports.append(try await port(transport, server.url + "/port")) }
        #expect(Set(ports).count == 3)
        #expect(transport.idleConnectionCount == 0)
    }

    @Test func connectionsTheServerEndsAreNotReused() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        let transport = SocketHTTPTransport()
        let closed = try await port(transport, server.url + "/close")
        #expect(transport.idleConnectionCount == 0)
        let afterClose = try await port(transport, server.url + "/port")
        #expect(afterClose != closed)
        let framedByEOF = try await port(transport, server.url + "/eof")
        #expect(framedByEOF == afterClose)  // it reused the kept-alive one, whose answer then ended it
        #expect(transport.idleConnectionCount == 0)
        let afterEOF = try await port(transport, server.url + "/port")
        #expect(afterEOF != afterClose)
    }

    @Test func concurrentRequestsEachGetAConnectionAndThePoolKeepsAFew() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        let transport = SocketHTTPTransport(maxIdleConnections: 2)
        let url = server.url + "/port"
        let ports = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await port(transport, url) } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(ports.count == 6)
        #expect(transport.idleConnectionCount <= 2)
        #expect(transport.idleConnectionCount >= 1)
    }

    @Test func aReusedConnectionFoundDeadIsRetriedOnlyForIdempotentMethods() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        let transport = SocketHTTPTransport()
        let first = try await port(transport, server.url + "/port")
        // GET on the kept connection: the server resets it unanswered, so it goes again on a new one.
        let retried = try await port(transport, server.url + "/drop")
        #expect(retried != first)
        // POST is not sent twice on its own: the caller learns of a network failure (and its
        // outbox, keyed by client id, decides).
        do {
            _ = try await transport.send(HTTPRequestMessage(method: "POST", url: server.url + "/drop"))
            Issue.record("a POST was retried on its own")
        } catch {
            #expect(error.code == .network)
            #expect(error.isTransient)
        }
        let fresh = try await port(transport, server.url + "/port", method: "POST")
        #expect(fresh != retried)
    }

    @Test(.timeLimit(.minutes(1))) func anIdleConnectionTheServerClosesLeavesThePool() async throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        var routes = HTTPRoutes()
        routes.get("/port") { request, responder in responder.respond(.text(String(request.remoteAddress?.port ?? 0))) }
        let server = HTTPServer(group: group, configuration: HTTPServerConfiguration(idleTimeout: .seconds(2)), routes: routes)
        let address = try server.start()
        let transport = SocketHTTPTransport()
        let url = "http://127.0.0.1:\(address.port)/port"
        let first = try await port(transport, url)
        // Long enough that a loaded machine still sees the connection parked before the server's
        // keep-alive timeout ends it; the pool then notices its FIN.
        #expect(transport.idleConnectionCount == 1)
        while transport.idleConnectionCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        let second = try await port(transport, url)
        #expect(second != first)
    }

    /// The server never answers and the transport would wait ten minutes: cancelling the
    /// awaiting task ends the request, and its kept-alive connection is closed, not reused.
    @Test(.timeLimit(.minutes(1))) func cancellingTheTaskCancelsTheRequestAndDropsItsConnection() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        let transport = SocketHTTPTransport(timeout: .seconds(600), idleConnectionTimeout: .seconds(600))
        let first = try await port(transport, server.url + "/port")
        let url = server.url + "/hang"
        let hanging = Task { try await transport.send(HTTPRequestMessage(method: "GET", url: url)) }
        while server.hangs == 0 { try await Task.sleep(for: .milliseconds(5)) }
        hanging.cancel()
        do {
            let response = try await hanging.value
            Issue.record("answered \(response.status)")
        } catch {
            #expect((error as? ParleyError)?.code == .cancelled)
        }
        #expect(transport.idleConnectionCount == 0)
        let next = try await port(transport, server.url + "/port")
        #expect(next != first)
    }

    /// The same through the SDK's API: cancelling the task of `client.me()` ends its request.
    @Test(.timeLimit(.minutes(1))) func cancellingAnSDKCallCancelsItsRequest() async throws {
        let server = try KeepAliveTestServer()
        defer { server.stop() }
        let client = try ParleyClient(
            configuration: ParleyConfiguration(serverURL: server.url + "/hang", appKey: "key"),
            tokenProvider: StaticTokenProvider("token"), http: SocketHTTPTransport(timeout: .seconds(600)))
        let call = Task { try await client.me() }
        while server.hangs == 0 { try await Task.sleep(for: .milliseconds(5)) }
        call.cancel()
        do {
            let user = try await call.value
            Issue.record("answered \(user.id)")
        } catch {
            #expect((error as? ParleyError)?.code == .cancelled)
        }
        await client.close()
    }
}
