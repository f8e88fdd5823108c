import Testing

@testable import ParleyKit

/// A client's life against a real server on loopback: dropped without close() it is freed and
/// its WebSocket closes on the server; signing out wipes only that user's local data; users
/// sharing a store file never send each other's outbox; an old store file is migrated.
@Suite(.timeLimit(.minutes(2)))
struct LifecycleTests {
    /// Open Pusher connections as the server counts them.
    func openConnections(_ server: LoopbackServer) throws -> Int {
        let text = try #require(server.server.channels?.metricsText())
        // One sample per app (`parley_channels_connections{app="1"} 2`): their sum.
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("parley_channels_connections{") }
        try #require(!lines.isEmpty)
        return try lines.reduce(0) { $0 + (try #require(Int($1.split(separator: " ").last ?? ""))) }
    }

    /// Polls `condition` until it holds or about 20 s have passed; returns whether it held.
    func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<2000 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try condition()
    }

    func client(_ server: LoopbackServer, token: String, storePath: String? = nil, serverURL: String? = nil) throws -> ParleyClient {
        try ParleyClient(
            configuration: ParleyConfiguration(
                serverURL: serverURL ?? server.url, appKey: "dev-key", storePath: storePath,
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))),
            tokenProvider: StaticTokenProvider(token))
    }

    @Test func aDroppedClientIsFreedAndItsWebSocketClosesOnTheServer() async throws {
        let server = try await LoopbackServer.start()
        var alice: ParleyClient? = try await server.client("Alice")
        let room = try await alice!.createRoom(name: "r", memberIDs: [])
        try await alice!.connect()
        await wait(alice!, for: .online)
        // Watching a room, typing and marking read start the tasks a client runs.
        var events = try await alice!.roomEvents(room.id, after: 0).makeAsyncIterator()
        _ = try await alice!.send(text: "hello", to: room.id)
        _ = await read(&events) { messages($0).count >= 1 }
        try await alice!.userIsTyping(in: room.id)
        try await alice!.markRead(room.id, upTo: 1)
        #expect(try await eventually { try openConnections(server) == 1 })

        weak let dropped = alice
        alice = nil
        #expect(try await eventually { dropped == nil }, "the client was kept alive")
        #expect(try await eventually { try openConnections(server) == 0 }, "the server still has the connection")
        // Its streams ended with it (this loop ends only then).
        while await events.next() != nil {}
        await server.stop()
    }

    @Test func twoUsersSharingAStoreNeverSendEachOthersOutbox() async throws {
        let server = try await LoopbackServer.start()
        let path = temporaryPath("shared")
        let aliceToken = try await server.token(for: "Alice"), bobToken = try await server.token(for: "Bob")
        let aliceID = try await client(server, token: aliceToken).userID()
        let bobID = try await client(server, token: bobToken).userID()
        let room = try await client(server, token: aliceToken).createRoom(name: "both", memberIDs: [bobID])

        // Alice writes while the server cannot be reached (nothing listens on port 9).
        let offline = try client(server, token: aliceToken, storePath: path, serverURL: "http://127.0.0.1:9")
        let queued = try await offline.send(text: "from alice", to: room.id)
        #expect(queued.isQueued)
        await offline.close()

        // Bob, on the same store file and online, sends his own message and flushes: not hers.
        let bob = try client(server, token: bobToken, storePath: path)
        #expect(try await bob.outbox().isEmpty)
        _ = try await bob.send(text: "from bob", to: room.id)
        try await bob.connect()
        await wait(bob, for: .online)
        let history = try await bob.history(room.id)
        #expect(history.messages.map(\.text) == ["from bob"])
        await bob.close()

        // Alice comes back: her message goes out under her own name, once.
        let alice = try client(server, token: aliceToken, storePath: path)
        #expect(try await alice.outbox().map(\.clientID) == [queued.clientID])
        var events = try await alice.roomEvents(room.id, after: 0).makeAsyncIterator()
        try await alice.connect()
        let seen = messages(await read(&events) { messages($0).count >= 2 })
        #expect(seen.map(\.text) == ["from bob", "from alice"])
        #expect(seen.map(\.senderID) == [bobID, aliceID])
        try await waitForEmptyOutbox(alice)
        await alice.close()
        await server.stop()
    }

    @Test func signingOutDeletesOnlyThatUsersLocalData() async throws {
        let server = try await LoopbackServer.start()
        let path = temporaryPath("signout")
        let aliceToken = try await server.token(for: "Alice"), bobToken = try await server.token(for: "Bob")
        let unreachable = "http://127.0.0.1:9"
        let alice = try client(server, token: aliceToken, storePath: path, serverURL: unreachable)
        _ = try await alice.send(text: "alice's", to: "room")
        let bob = try client(server, token: bobToken, storePath: path, serverURL: unreachable)
        let bobs = try await bob.send(text: "bob's", to: "room")
        await bob.close()

        try await alice.signOut(deletingLocalData: true)
        await #expect(throws: ParleyError.self) { try await alice.outbox() }
        let aliceAgain = try client(server, token: aliceToken, storePath: path, serverURL: unreachable)
        #expect(try await aliceAgain.outbox().isEmpty)
        let bobAgain = try client(server, token: bobToken, storePath: path, serverURL: unreachable)
        #expect(try await bobAgain.outbox().map(\.clientID) == [bobs.clientID])
        await aliceAgain.close()
        await bobAgain.close()
        await server.stop()
    }

    @Test func aStoreFromBeforeOwnersIsMigratedAndItsOutboxAdoptedByTheFirstUser() async throws {
        let server = try await LoopbackServer.start()
        let path = temporaryPath("legacy")
        let aliceToken = try await server.token(for: "Alice")
        let room = try await client(server, token: aliceToken).createRoom(name: "old", memberIDs: [])
        // The schema ParleyKit wrote before outbox entries had owners (user_version 0).
        do {
            let legacy = try SQLiteDatabase(path: path)
            try legacy.execute(
                """
                CREATE TABLE outbox (position INTEGER PRIMARY KEY AUTOINCREMENT, client_id TEXT NOT NULL UNIQUE,
                    room_id TEXT NOT NULL, parts TEXT NOT NULL, created_at INTEGER NOT NULL, failure_code TEXT, failure_message TEXT);
                CREATE TABLE rooms (room_id TEXT PRIMARY KEY, summary TEXT NOT NULL);
                CREATE TABLE messages (room_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (room_id, seq));
                """)
            try legacy.query(
                "INSERT INTO outbox (client_id, room_id, parts, created_at) VALUES (?, ?, ?, ?)",
                [.text("c-legacy"), .text(room.id), .text(#"[{"type":"text","text":"written long ago"}]"#), .integer(1)])
        }
        let alice = try client(server, token: aliceToken, storePath: path)
        #expect(try await alice.outbox().map(\.clientID) == ["c-legacy"])
        var events = try await alice.roomEvents(room.id, after: 0).makeAsyncIterator()
        try await alice.connect()
        let seen = messages(await read(&events) { messages($0).count >= 1 })
        #expect(seen.map(\.clientID) == ["c-legacy"])
        #expect(seen.map(\.text) == ["written long ago"])
        await alice.close()
        await server.stop()
    }
}
