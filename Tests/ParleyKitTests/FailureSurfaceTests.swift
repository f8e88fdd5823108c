import ParleyKitTesting
import Synchronization
import Testing

@testable import ParleyKit

/// Failures reach the app, against a real server on loopback: sign-in failures become the
/// authentication-failed state (never online), a refused subscription arrives as a room
/// event, a refused send throws, a closed client refuses every call, and the diagnostics hook
/// hears what the client handled on its own.
@Suite(.timeLimit(.minutes(2)))
struct FailureSurfaceTests {
    /// A client of `server` with its own token provider.
    func client(
        _ server: LoopbackServer, tokens: any TokenProvider, storePath: String? = nil,
        diagnostics: (@Sendable (ParleyDiagnostic) -> Void)? = nil
    ) throws -> ParleyClient {
        try ParleyClient(
            configuration: ParleyConfiguration(
                serverURL: server.url, appKey: "dev-key", storePath: storePath,
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200)),
                diagnostics: diagnostics),
            tokenProvider: tokens)
    }

    /// The states up to the first that is neither idle nor signing in.
    func settledStates(_ client: ParleyClient) async -> [ConnectionState] {
        var seen: [ConnectionState] = []
        for await state in client.connectionStates() {
            seen.append(state)
            if state != .idle, state != .signingIn { break }
        }
        return seen
    }

    @Test(arguments: [("/v1/no-such-token-endpoint", 404), ("/v1/channels/user-auth", 401)])
    func aTokenEndpointThatRefusesEndsInAuthenticationFailed(path: String, status: Int) async throws {
        let server = try await LoopbackServer.start()
        // A backend's token endpoint that answers 404 (wrong URL) or 401 (the app's session ended).
        let alice = try client(server, tokens: HTTPTokenProvider(url: server.url + path, userID: "alice"))
        try await alice.connect()
        let states = await settledStates(alice)
        #expect(!states.contains(.online))
        let error = try #require(states.last?.authenticationError, "\(states)")
        #expect(error.code == .authentication)
        #expect(error.status == status)
        #expect(await alice.connectionState == .authenticationFailed(error))
        await alice.close()
        await server.stop()
    }

    @Test func aTokenTheServerRefusesEndsInAuthenticationFailed() async throws {
        let server = try await LoopbackServer.start()
        let real = try await server.token(for: "Alice")
        // A well-formed JWT (the client reads its subject) whose signature the server rejects.
        let forged = String(real.dropLast(4)) + (real.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let alice = try client(server, tokens: StaticTokenProvider(forged))
        try await alice.connect()
        let states = await settledStates(alice)
        #expect(!states.contains(.online))
        let error = try #require(states.last?.authenticationError, "\(states)")
        #expect(error.status == 401)
        await alice.close()
        await server.stop()
    }

    @Test func aRefusedSubscriptionArrivesAsAnEventAndADiagnostic() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        let room = try await alice.createRoom(name: "private", memberIDs: [])
        let heard = Mutex<[ParleyDiagnostic]>([])
        let carol = try client(server, tokens: StaticTokenProvider(try await server.token(for: "Carol"))) { diagnostic in
            heard.withLock { $0.append(diagnostic) }
        }
        try await carol.connect()
        await wait(carol, for: .online)
        var events = try await carol.roomEvents(room.id).makeAsyncIterator()
        let first = await events.next()
        guard case .subscriptionFailed(let error)? = first else {
            Issue.record("expected a refused subscription, got \(String(describing: first))")
            return
        }
        #expect(error.status == 403)
        #expect(!error.isTransient)
        let diagnostics = heard.withLock { $0 }
        #expect(diagnostics.contains { $0.kind == .subscription && $0.roomID == room.id && $0.error == error })
        await alice.close()
        await carol.close()
        await server.stop()
    }

    @Test func aSendToAMissingRoomThrowsAndQueuesNothing() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        do {
            let result = try await alice.send(text: "hello?", to: "no-such-room")
            Issue.record("a send to a missing room returned \(result)")
        } catch {
            #expect(error.code == .server)
            #expect(error.status == 404 || error.status == 403, "\(error)")
            #expect(!error.isTransient)
        }
        #expect(try await alice.outbox().isEmpty)
        // A send to a real room resolves to the server's message.
        let room = try await alice.createRoom(name: "real", memberIDs: [])
        let sent = try await alice.send(text: "hello", to: room.id)
        #expect(sent.message?.roomID == room.id)
        #expect(sent.message?.text == "hello")
        await alice.close()
        await server.stop()
    }

    @Test func aSendToAnUnreachableServerSaysItIsQueued() async throws {
        // Nothing listens on port 9 of loopback ("discard", never served here).
        let alice = try ParleyClient(
            configuration: ParleyConfiguration(serverURL: "http://127.0.0.1:9", appKey: "dev-key"),
            tokenProvider: StaticTokenProvider(InMemoryChatServer().token(for: "alice")))
        let result = try await alice.send(text: "later", to: "some-room")
        guard case .queued(let entry) = result else {
            Issue.record("expected queued, got \(result)")
            return
        }
        #expect(entry.state == .pending)
        #expect(try await alice.outbox().map(\.clientID) == [entry.clientID])
        await alice.close()
    }

    @Test func everyCallAfterCloseThrowsClosed() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        let room = try await alice.createRoom(name: "r", memberIDs: [])
        await alice.close()
        func expectClosed(_ what: String, _ body: () async throws(ParleyError) -> Void) async {
            do {
                try await body()
                Issue.record("\(what) after close() did not throw")
            } catch {
                #expect(error.code == .closed, "\(what): \(error)")
            }
        }
        await expectClosed("send") { () throws(ParleyError) in _ = try await alice.send(text: "x", to: room.id) }
        await expectClosed("enqueue") { () throws(ParleyError) in _ = try await alice.enqueue([.text("x")], to: room.id) }
        await expectClosed("connect") { () throws(ParleyError) in try await alice.connect() }
        await expectClosed("roomEvents") { () throws(ParleyError) in _ = try await alice.roomEvents(room.id) }
        await expectClosed("history") { () throws(ParleyError) in _ = try await alice.history(room.id) }
        await expectClosed("createRoom") { () throws(ParleyError) in _ = try await alice.createRoom(name: "n", memberIDs: []) }
        await expectClosed("userIsTyping") { () throws(ParleyError) in try await alice.userIsTyping(in: room.id) }
        await expectClosed("markRead") { () throws(ParleyError) in try await alice.markRead(room.id, upTo: 1) }
        await expectClosed("outbox") { () throws(ParleyError) in _ = try await alice.outbox() }
        await expectClosed("openDocument") { () throws(ParleyError) in _ = try await alice.openDocument(room: room.id, name: "d") }
        #expect(await alice.connectionState == .idle)
        await server.stop()
    }
}
