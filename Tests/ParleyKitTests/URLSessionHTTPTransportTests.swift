import Foundation
import Testing

@testable import ParleyKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport (FoundationNetworking here) against a real server on loopback:
/// the whole REST path of a client, error answers with their codes, binary bodies, and a token
/// endpoint reached through it.
@Suite(.timeLimit(.minutes(2)))
struct URLSessionHTTPTransportTests {
    func client(_ server: LoopbackServer, tokens: any TokenProvider) throws -> ParleyClient {
        try ParleyClient(
            configuration: ParleyConfiguration(serverURL: server.url, appKey: "dev-key"),
            tokenProvider: tokens, http: URLSessionHTTPTransport())
    }

    @Test func aClientTalksToTheServerOverURLSession() async throws {
        let server = try await LoopbackServer.start()
        let alice = try client(server, tokens: StaticTokenProvider(try await server.token(for: "Alice")))
        let room = try await alice.createRoom(name: "over urlsession", memberIDs: [])
        let sent = try await alice.send(text: "héllo ✓", to: room.id)
        #expect(sent.message?.text == "héllo ✓")
        let page = try await alice.history(room.id)
        #expect(page.messages.map(\.text) == ["héllo ✓"])
        // Binary bodies both ways.
        let bytes = (0..<5000).map { UInt8($0 % 256) }
        let attachment = try await alice.upload(bytes, contentType: "application/octet-stream", to: room.id)
        #expect(attachment.size == bytes.count)
        #expect(try await alice.download(attachment.id) == bytes)
        // Error answers keep their status and the server's code.
        do {
            _ = try await alice.room("no-such-room")
            Issue.record("a missing room was found")
        } catch {
            #expect(error.code == .server)
            #expect(error.status == 404 || error.status == 403)
            #expect(error.serverCode != nil)
        }
        // Live events still come (the realtime transport is the socket one).
        try await alice.connect()
        await wait(alice, for: .online)
        await alice.close()
        await server.stop()
    }

    @Test func aTokenEndpointIsReachedThroughURLSession() async throws {
        let server = try await LoopbackServer.start()
        _ = try await server.token(for: "Bob")
        // The dev token endpoint stands in for an app backend's.
        let tokens = HTTPTokenProvider(url: server.url + "/v1/dev/token", userID: "bob", http: URLSessionHTTPTransport())
        let bob = try client(server, tokens: tokens)
        #expect(try await bob.me().id == "bob")
        let refused = HTTPTokenProvider(url: server.url + "/v1/no-such-endpoint", http: URLSessionHTTPTransport())
        await #expect(throws: ParleyError(.authentication, "token endpoint answered 404", status: 404)) {
            try await refused.token()
        }
        await bob.close()
        await server.stop()
    }

    @Test func onlyHTTPAndHTTPSURLsAreAccepted() async throws {
        await #expect(throws: ParleyError.self) {
            try await URLSessionHTTPTransport().send(HTTPRequestMessage(method: "GET", url: "ftp://example.com/x"))
        }
        let request = try URLSessionHTTPTransport.urlRequest(
            HTTPRequestMessage(
                method: "PUT", url: "https://example.com/a?b=c",
                headers: ["X-Parley-App": "app"], body: [1, 2]),
            timeout: .seconds(5))
        #expect(request.httpMethod == "PUT")
        #expect(request.value(forHTTPHeaderField: "X-Parley-App") == "app")
        #expect(request.httpBody?.count == 2)
    }
}
