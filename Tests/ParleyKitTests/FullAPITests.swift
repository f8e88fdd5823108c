import Testing

@testable import ParleyKit

/// Reads room events until one satisfies `match`; returns it.
func firstEvent<T>(_ iterator: inout AsyncStream<RoomEvent>.Iterator, _ match: (RoomEvent) -> T?) async -> T? {
    while let event = await iterator.next() {
        if let found = match(event) { return found }
    }
    return nil
}

/// `bob`, watching `roomID` live: returns once a message from `alice` has reached him, so the
/// subscription is in place.
func watching(_ bob: ParleyClient, _ alice: ParleyClient, _ roomID: String) async throws -> AsyncStream<RoomEvent>.Iterator {
    try await bob.connect()
    await wait(bob, for: .online)
    var events = try await bob.roomEvents(roomID, after: 0).makeAsyncIterator()
    _ = try await alice.send(text: "hello", to: roomID)
    _ = await firstEvent(&events) { if case .message = $0 { true } else { nil } }
    return events
}

/// The rest of the REST API through ParleyKit, against a real server in this process: room
/// changes, roles, single messages, the user directory, stop typing, mark all read, push
/// device tokens and the development token provider.
@Suite(.serialized) struct FullAPITests {
    @Test func roomsAreRenamedRolesChangedAndRoomsDeletedWithEventsForMembers() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let bobID = try await bob.userID()
        let room = try await alice.createRoom(name: "before", memberIDs: [bobID])
        var events = try await watching(bob, alice, room.id)

        let renamed = try await alice.updateRoom(room.id, name: "after", kind: .public)
        #expect(renamed.name == "after" && renamed.kind == .public)
        let heard = await firstEvent(&events) { if case .roomUpdated(let room) = $0 { room } else { nil } }
        #expect(heard?.name == "after")
        #expect(try await bob.room(room.id).name == "after")

        let promoted = try await alice.setRole(.admin, of: bobID, in: room.id)
        #expect(promoted.role == .admin && promoted.userID == bobID)
        let updated = await firstEvent(&events) { if case .memberUpdated(let member) = $0 { member } else { nil } }
        #expect(updated?.userID == bobID && updated?.role == .admin)
        // Bob is an admin now: he may rename it himself.
        #expect(try await bob.updateRoom(room.id, name: "Bob's").name == "Bob's")

        try await alice.deleteRoom(room.id)
        let deleted = await firstEvent(&events) { if case .roomDeleted = $0 { true } else { nil } }
        #expect(deleted == true)
        await #expect(throws: ParleyError.self) { try await bob.room(room.id) }
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func aDeletedAttachmentIsAnnouncedToTheRoom() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let bobID = try await bob.me().id
        let room = try await alice.createRoom(name: "files", memberIDs: [bobID])
        var events = try await watching(bob, alice, room.id)
        let attachment = try await alice.upload(Array("%PDF-1.7".utf8), contentType: "application/pdf", to: room.id, name: "plan.pdf")
        _ = try await alice.send([.file(FilePart(attachment))], to: room.id)
        try await alice.deleteAttachment(attachment.id)
        let announced = await firstEvent(&events) { if case .attachmentDeleted(let id) = $0 { id } else { nil } }
        #expect(announced == attachment.id)
    }

    @Test func oneMessageAndTheUserDirectory() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        _ = try await server.client("Stranger").userID()
        let room = try await alice.createRoom(name: "r", memberIDs: [try await bob.userID()])
        let sent = try #require(try await alice.send(text: "find me", to: room.id).message)
        let fetched = try await bob.message(sent.id, in: room.id)
        #expect(fetched == sent)
        do {
            _ = try await bob.message(sent.id + 1000, in: room.id)
            Issue.record("a missing message was found")
        } catch {
            #expect(error.status == 404 && error.serverCode == "message_not_found")
        }
        let directory = try await bob.users()
        #expect(Set(directory.map(\.name)) == ["Alice", "Bob"], "only the people Bob shares a room with")
        let firstPage = try await bob.users(limit: 1)
        let secondPage = try await bob.users(after: firstPage.last?.id, limit: 1)
        #expect(firstPage.count == 1 && secondPage.count == 1 && firstPage != secondPage)
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func stopTypingClearsTheIndicatorBeforeItExpires() async throws {
        let server = try await LoopbackServer.start()
        // Typing notices would outlive the test: only stopTyping can clear them.
        let configuration = ParleyConfiguration(serverURL: server.url, appKey: "dev-key", typingTimeout: .seconds(600))
        let alice = try ParleyClient(configuration: configuration, tokenProvider: StaticTokenProvider(try await server.token(for: "Alice")))
        let bob = try await server.client("Bob")
        let bobID = try await bob.userID()
        let room = try await bob.createRoom(name: "t", memberIDs: [try await alice.userID()])
        var events = try await watching(alice, bob, room.id)

        try await bob.userIsTyping(in: room.id)
        let typing = await firstEvent(&events) { if case .typing(let users) = $0, !users.isEmpty { users } else { nil } }
        #expect(typing == [bobID])
        try await bob.stopTyping(in: room.id)
        let stopped = await firstEvent(&events) { if case .typing(let users) = $0 { users } else { nil } }
        #expect(stopped == [])
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func markAllReadClearsEveryUnreadCount() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let bobID = try await bob.userID()
        let first = try await alice.createRoom(name: "one", memberIDs: [bobID])
        let second = try await alice.createRoom(name: "two", memberIDs: [bobID])
        let quiet = try await alice.createRoom(name: "quiet", memberIDs: [bobID])
        for index in 1...3 { _ = try await alice.send(text: "m\(index)", to: first.id) }
        _ = try await alice.send(text: "n", to: second.id)
        #expect(try await bob.myRooms().map(\.unreadCount).reduce(0, +) == 4)

        let moved = try await bob.markAllRead()
        #expect(Set(moved) == [first.id, second.id], "a room with nothing unread is left alone: \(quiet.id)")
        let after = try await bob.myRooms()
        #expect(after.allSatisfy { $0.unreadCount == 0 })
        #expect(after.first { $0.id == first.id }?.readSeq == 3)
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func pushTokensAreRegisteredPerUserAndMoveWithTheDevice() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let aliceID = try await alice.userID()
        let phone = DeviceRegistration.hex([0xde, 0xad, 0xbe, 0xef, 0x01])
        #expect(phone == "deadbeef01")

        let registered = try await alice.registerDevice(token: phone, platform: .apnsSandbox)
        #expect(registered.userID == aliceID && registered.platform == .apnsSandbox && registered.updatedAt > 0)
        _ = try await alice.registerDevice(token: "fcm:tablet-1", platform: .fcm)
        #expect(try await alice.devices().map(\.token) == [phone, "fcm:tablet-1"])
        let stored = try await server.store.devices(app: "1", user: aliceID)
        #expect(stored.map(\.platform) == [.apnsSandbox, .fcm], "the server keeps them for its notifications")

        // Bob signs in on Alice's phone.
        _ = try await bob.registerDevice(token: phone, platform: .apns)
        #expect(try await alice.devices().map(\.token) == ["fcm:tablet-1"])
        #expect(try await bob.devices().map(\.platform) == [.apns])

        try await alice.unregisterDevice(token: "fcm:tablet-1")
        #expect(try await alice.devices().isEmpty)
        do {
            _ = try await alice.registerDevice(token: "has space", platform: .fcm)
            Issue.record("a token with a space was accepted")
        } catch {
            #expect(error.status == 422 && error.serverCode == "validation_failed")
        }
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func theDevTokenProviderSignsInByName() async throws {
        let server = try await LoopbackServer.start()
        let client = try ParleyClient(
            configuration: ParleyConfiguration(serverURL: server.url, appKey: "dev-key"),
            tokenProvider: DevTokenProvider(serverURL: server.url, name: "Dora"))
        #expect(try await client.me().name == "Dora")
        await client.close()
        await server.stop()

        let nowhere = DevTokenProvider(serverURL: server.url, name: "Dora")
        await #expect(throws: ParleyError.self) { try await nowhere.token(forceRefresh: false) }
    }
}
