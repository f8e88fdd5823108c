import ParleyWire
import Testing

@testable import ParleyNet

@Suite struct HTTPClientTests {
    @Test func theRequestIsFramedForTheWire() throws {
        let url = try #require(HTTPClientRequest.parseURL("http://example.test:8080/v1/me?x=1"))
        var request = HTTPClientRequest(method: "POST", url: "http://example.test:8080/v1/me?x=1", body: Array("{}".utf8))
        request.headers.add("Content-Length", "999")
        request.headers.add("Accept", "application/json")
        let text = String(decoding: request.encoded(for: url, keepAlive: false), as: UTF8.self)
        #expect(
            text
                == "POST /v1/me?x=1 HTTP/1.1\r\nHost: example.test:8080\r\nAccept: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        )
        let secure = try #require(HTTPClientRequest.parseURL("https://example.test/v1"))
        #expect(secure.isSecure && secure.port == 443 && secure.hostHeader == "example.test" && secure.target == "/v1")
        #expect(HTTPClientRequest.parseURL("https://example.test:8443/")?.hostHeader == "example.test:8443")
        #expect(HTTPClientRequest.parseURL("ftp://example.test/") == nil)
    }

    /// The server never answers and the client would wait ten minutes: only cancelling the
    /// awaiting task ends the request, and its connection goes with it.
    @Test(.timeLimit(.minutes(1))) func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let server = try SilentHTTPServer()
        defer { server.stop() }
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let client = HTTPClient(group: group, configuration: HTTPClientConfiguration(timeout: .seconds(600)))
        let request = Task { () async throws -> HTTPClientResponse in
            try await client.execute(HTTPClientRequest(method: "GET", url: server.url + "/never"))
        }
        try await server.wait { $0.heads == 1 }
        request.cancel()
        switch await request.result {
        case .success(let response): Issue.record("answered \(response.status)")
        case .failure(let error): #expect((error as? HTTPClientError)?.code == .cancelled)
        }
        try await server.wait { $0.ended == 1 }
        #expect(client.idleConnectionCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aTaskCancelledBeforeItStartsSendsNothing() async throws {
        let server = try SilentHTTPServer()
        defer { server.stop() }
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let client = HTTPClient(group: group, configuration: HTTPClientConfiguration(timeout: .seconds(600)))
        let request = Task { () async throws -> HTTPClientResponse in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.execute(HTTPClientRequest(method: "GET", url: server.url + "/never"))
        }
        switch await request.result {
        case .success(let response): Issue.record("answered \(response.status)")
        case .failure(let error): #expect((error as? HTTPClientError)?.code == .cancelled)
        }
        // A request sent after it reaches the server on its own: the cancelled one never did.
        let later = client.start(HTTPClientRequest(method: "GET", url: server.url + "/later")) { _ in }
        try await server.wait { $0.heads >= 1 }
        #expect(server.heads == 1)
        later.cancel()
    }

    @Test(.timeLimit(.minutes(1))) func cancellingAStartedRequestAnswersItsCompletionOnce() async throws {
        let server = try SilentHTTPServer()
        defer { server.stop() }
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let client = HTTPClient(group: group, configuration: HTTPClientConfiguration(timeout: .seconds(600)))
        let (results, sink) = AsyncStream<Result<HTTPClientResponse, HTTPClientError>>.makeStream()
        let task = client.start(HTTPClientRequest(method: "POST", url: server.url + "/never", body: Array("x".utf8))) { sink.yield($0) }
        try await server.wait { $0.heads == 1 }
        task.cancel()
        task.cancel()
        var iterator = results.makeAsyncIterator()
        let first = await iterator.next()
        #expect((try? first?.get()) == nil)
        if case .failure(let error)? = first { #expect(error.code == .cancelled) }
        try await server.wait { $0.ended == 1 }
        sink.finish()
        #expect(await iterator.next() == nil)
    }
}
