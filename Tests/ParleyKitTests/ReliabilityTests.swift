import ParleyKitTesting
import Testing

@testable import ParleyKit

@Suite struct ReliabilityTests {
    let clock = ManualClock()
    let server: InMemoryChatServer

    init() {
        server = InMemoryChatServer(clock: clock)
        server.addUser("alice")
        server.addUser("bob")
    }

    /// Waits until `count` tasks sleep on the clock (a state is published just before its sleep starts).
    func sleeping(_ count: Int) async {
        while clock.sleeperCount < count { await Task.yield() }
    }

    func room(_ client: ParleyClient) async throws -> String {
        try await client.createRoom(name: "general", memberIDs: ["bob"]).id
    }

    /// Alice online, in a new room with bob, and subscribed to it from its start.
    func aliceListeningInARoom() async throws -> (ParleyClient, String, AsyncStream<RoomEvent>.Iterator) {
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.connect()
        await wait(alice, for: .online)
        let roomID = try await room(alice)
        let events = try await alice.roomEvents(roomID, after: 0).makeAsyncIterator()
        await waitForSubscribers(server, "private-room-" + roomID)
        return (alice, roomID, events)
    }

    @Test func missedEventsAreFilledFromHistoryInOrderExactlyOnce() async throws {
        let (alice, roomID, iterator) = try await aliceListeningInARoom()
        var events = iterator
        server.post("one", as: "bob", in: roomID)
        // Events are lost while the connection is down: only history has them.
        server.setPublishing(false)
        server.post("two", as: "bob", in: roomID)
        server.post("three", as: "bob", in: roomID)
        server.setPublishing(true)
        server.dropConnections(code: 4200)
        await wait(alice, for: .online)
        server.post("four", as: "bob", in: roomID)
        let seen = messages(await read(&events) { messages($0).count >= 4 })
        #expect(seen.map(\.seq) == [1, 2, 3, 4])
        #expect(seen.map(\.text) == ["one", "two", "three", "four"])
    }

    @Test(.timeLimit(.minutes(1))) func aFailedGapFillIsRetriedAfterABackoffWithoutANewEvent() async throws {
        // The client must stay referenced: a dropped one is freed and stops reconnecting.
        let (alice, roomID, iterator) = try await aliceListeningInARoom()
        defer { withExtendedLifetime(alice) {} }
        var events = iterator
        server.post("one", as: "bob", in: roomID)
        _ = await read(&events) { messages($0).count >= 1 }
        server.setPublishing(false)
        server.post("two", as: "bob", in: roomID)
        server.post("three", as: "bob", in: roomID)
        server.setPublishing(true)
        // The reconnect's history read fails and nothing new happens in the room.
        let historyReads = "GET /v1/rooms/\(roomID)/messages"
        let reads = server.requestCount(historyReads)
        server.failHistoryReads(1)
        server.dropConnections(code: 4200)
        while server.requestCount(historyReads) < reads + 1 { try await Task.sleep(for: .milliseconds(1)) }
        // The failed fill waits for a backoff (not for the liveness timer minutes away), then reads again.
        while clock.sleeperCount(dueWithin: .seconds(30)) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: .seconds(30))
        let seen = messages(await read(&events) { messages($0).count >= 2 })
        #expect(seen.map(\.text) == ["two", "three"])
    }

    @Test func duplicatedAndReplayedEventsAreDeliveredOnce() async throws {
        let (alice, roomID, iterator) = try await aliceListeningInARoom()
        var events = iterator
        server.setDuplicating(true)
        for text in ["a", "b", "c"] { server.post(text, as: "bob", in: roomID) }
        server.setDuplicating(false)
        // A reconnect re-reads history after the last delivered seq: nothing repeats.
        server.dropConnections(code: 4201)
        await wait(alice, for: .online)
        await waitForSubscribers(server, "private-room-" + roomID)
        server.post("d", as: "bob", in: roomID)
        let seen = messages(await read(&events) { messages($0).count >= 4 })
        #expect(seen.map(\.text) == ["a", "b", "c", "d"])
    }

    @Test(.timeLimit(.minutes(1))) func aSendWhoseAnswerWasLostIsRetriedWithoutDoubling() async throws {
        let (alice, roomID, iterator) = try await aliceListeningInARoom()
        var events = iterator
        let sleepers = clock.sleeperCount
        server.loseResponses(1)
        let pending = try await alice.send(text: "hello", to: roomID)
        // The retry waits for backoff on the manual clock.
        while clock.sleeperCount <= sleepers { await Task.yield() }
        clock.advance(by: .seconds(60))
        let seen = messages(await read(&events) { messages($0).count >= 1 })
        #expect(seen.map(\.clientID) == [pending.clientID])
        let stored = server.messages(in: roomID)
        #expect(stored.count == 1)
        #expect(stored.first?.clientID == pending.clientID)
        server.post("next", as: "bob", in: roomID)
        let more = messages(await read(&events) { messages($0).count >= 1 })
        #expect(more.map(\.seq) == [2])
        try await waitForEmptyOutbox(alice)
        #expect(try await alice.outbox().isEmpty)
    }

    @Test func theOutboxSurvivesRecreatingTheClient() async throws {
        let path = temporaryPath("outbox")
        let roomID = try await {
            let setup = try makeClient(server, "alice", clock: clock)
            return try await room(setup)
        }()
        server.setReachable(false)
        var first: ParleyClient? = try makeClient(server, "alice", clock: clock, storePath: path)
        let queued = try await first!.send(text: "written offline", to: roomID)
        #expect(try await first!.outbox().map(\.clientID) == [queued.clientID])
        await first!.close()
        first = nil
        #expect(server.messages(in: roomID).isEmpty)

        server.setReachable(true)
        let second = try makeClient(server, "alice", clock: clock, storePath: path)
        #expect(try await second.outbox().map(\.clientID) == [queued.clientID])
        var outbox = try await second.roomEvents(roomID, after: 0).makeAsyncIterator()
        try await second.connect()
        _ = await read(&outbox) { events in
            events.contains { if case .outbox(let entries) = $0 { entries.isEmpty } else { false } }
        }
        let stored = server.messages(in: roomID)
        #expect(stored.map(\.clientID) == [queued.clientID])
        #expect(stored.map(\.text) == ["written offline"])
        #expect(try await second.outbox().isEmpty)
    }

    @Test func aSendTheServerRefusesThrowsAndLeavesNothingQueued() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        let roomID = try await room(alice)
        server.refuseSends([(status: 422, code: "validation_failed")])
        await #expect(throws: ParleyError(.server, "validation_failed", status: 422, serverCode: "validation_failed")) {
            try await alice.send(text: "too long", to: roomID)
        }
        #expect(try await alice.outbox().isEmpty)
        let delivered = try await alice.send(text: "fine", to: roomID)
        #expect(delivered.message?.text == "fine")
        #expect(server.messages(in: roomID).map(\.clientID) == [delivered.clientID])
    }

    @Test func aQueuedMessageRefusedLaterIsMarkedFailedAndCanBeRetried() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        let roomID = try await room(alice)
        var events = try await alice.roomEvents(roomID, after: 0).makeAsyncIterator()
        server.refuseSends([(status: 422, code: "validation_failed")])
        let pending = try await alice.enqueue([.text("too long")], to: roomID)
        let failed = await read(&events) { events in
            events.contains { if case .outbox(let entries) = $0 { entries.first?.state != .pending } else { false } }
        }
        guard case .outbox(let entries)? = failed.last else { Issue.record("no outbox event"); return }
        #expect(entries.first?.state == .failed(code: "validation_failed", message: "validation_failed"))
        try await alice.retry(clientID: pending.clientID)
        let sent = messages(await read(&events) { messages($0).count >= 1 })
        #expect(sent.map(\.clientID) == [pending.clientID])
        #expect(server.messages(in: roomID).count == 1)
    }

    @Test func closeCodesDecideWhetherToReconnect() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.connect()
        await wait(alice, for: .online)
        // 4100: backoff, then back online once the delay has passed.
        var states = alice.connectionStates().makeAsyncIterator()
        server.dropConnections(code: 4100)
        let backoff = await read(&states) { $0.contains { if case .reconnecting = $0 { true } else { false } } }
        #expect(backoff.last == .reconnecting(attempt: 1, delay: .milliseconds(750)))
        #expect(server.openConnectionCount == 0)
        await sleeping(1)
        clock.advance(by: .milliseconds(750))
        _ = await read(&states) { $0.last == .online }
        // Unreachable: backoff grows while connects fail.
        server.setReachable(false)
        _ = await read(&states) { $0.last == .reconnecting(attempt: 1, delay: .milliseconds(750)) }
        await sleeping(1)
        clock.advance(by: .milliseconds(750))
        _ = await read(&states) { $0.last == .reconnecting(attempt: 2, delay: .milliseconds(1500)) }
        server.setReachable(true)
        await sleeping(1)
        clock.advance(by: .milliseconds(1500))
        _ = await read(&states) { $0.last == .online }
        // 4001: never reconnect unchanged.
        server.dropConnections(code: 4001, reason: "unknown app")
        _ = await read(&states) { $0.last == .offline(reason: "unknown app") }
        #expect(server.openConnectionCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aNetworkChangeEndsTheBackoffAndRetriesAtOnce() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.connect()
        await wait(alice, for: .online)
        let roomID = try await room(alice)
        var states = alice.connectionStates().makeAsyncIterator()
        server.setReachable(false)
        server.dropConnections(code: 4100)
        let queued = try await alice.send(text: "while away", to: roomID)
        #expect(queued.isQueued)
        _ = await read(&states) {
            $0.last == .reconnecting(attempt: 2, delay: .milliseconds(1500))
                || $0.last == .reconnecting(attempt: 1, delay: .milliseconds(750))
        }
        server.setReachable(true)
        // No clock advance: only the network change can bring it back.
        try await alice.networkDidChange()
        _ = await read(&states) { $0.last == .online }
        try await waitForEmptyOutbox(alice)
        #expect(server.messages(in: roomID).map(\.clientID) == [queued.clientID])
    }

    @Test func typingIsThrottledOutAndExpiresIn() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        try await alice.connect()
        await wait(alice, for: .online)
        let roomID = try await room(alice)
        let path = "POST /v1/rooms/\(roomID)/typing"
        for _ in 0..<5 { try await alice.userIsTyping(in: roomID) }
        while server.requestCount(path) < 1 { await Task.yield() }
        clock.advance(by: .milliseconds(999))
        try await alice.userIsTyping(in: roomID)
        clock.advance(by: .milliseconds(1))
        try await alice.userIsTyping(in: roomID)
        while server.requestCount(path) < 2 { await Task.yield() }
        #expect(server.requestCount(path) == 2)

        var events = try await alice.roomEvents(roomID, after: 0).makeAsyncIterator()
        await waitForSubscribers(server, "private-room-" + roomID)
        let sleepers = clock.sleeperCount
        server.typing("bob", in: roomID)
        let typing = await read(&events) { $0.contains(.typing(userIDs: ["bob"])) }
        #expect(typing.last == .typing(userIDs: ["bob"]))
        while clock.sleeperCount <= sleepers { await Task.yield() }
        clock.advance(by: .seconds(3))
        let expired = await read(&events) { $0.contains(.typing(userIDs: [])) }
        #expect(expired.last == .typing(userIDs: []))
    }

    @Test func readCursorsAreDebouncedAndNeverGoBack() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        let roomID = try await room(alice)
        for text in ["1", "2", "3"] { server.post(text, as: "bob", in: roomID) }
        try await alice.markRead(roomID, upTo: 1)
        try await alice.markRead(roomID, upTo: 3)
        try await alice.markRead(roomID, upTo: 2)
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .milliseconds(500))
        while server.requestCount("PUT /v1/rooms/\(roomID)/cursor") < 1 { await Task.yield() }
        let cursors = try await alice.cursors(in: roomID)
        #expect(cursors.first { $0.userID == "alice" }?.seq == 3)
        #expect(server.requestCount("PUT /v1/rooms/\(roomID)/cursor") == 1)
    }

    @Test func unauthorizedCallsFailWithTheServerCode() async throws {
        let stranger = try makeClient(server, "carol", clock: clock)
        let roomID = try await room(try makeClient(server, "alice", clock: clock))
        do {
            _ = try await stranger.history(roomID)
            Issue.record("a non-member read history")
        } catch {
            #expect(error.status == 403)
            #expect(error.serverCode == "not_member")
            #expect(!error.isTransient)
        }
    }

    @Test func attachmentsUploadWithProgressAndDownload() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        let roomID = try await room(alice)
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        let progress = Counter()
        let attachment = try await alice.upload(bytes, contentType: "image/png", to: roomID) { sent, total in
            if sent == total { Task { await progress.increment() } }
        }
        #expect(attachment.size == 1000)
        #expect(attachment.contentType == "image/png")
        #expect(try await alice.download(attachment.id) == bytes)
        try await alice.deleteAttachment(attachment.id)
        do {
            _ = try await alice.download(attachment.id)
            Issue.record("a deleted attachment downloaded")
        } catch {
            #expect(error.serverCode == "attachment_not_found")
        }
    }

    @Test func aFilePartCarriesItsAttachmentsNameSizeAndType() async throws {
        let alice = try makeClient(server, "alice", clock: clock)
        let roomID = try await room(alice)
        let attachment = try await alice.upload(Array("%PDF-1.7".utf8), contentType: "application/pdf", to: roomID, name: "plan.pdf")
        var sent = FilePart(attachment)
        sent.name = "plan.pdf"  // the in-memory server does not read the name parameter; the real one fills it in
        _ = try await alice.send([.file(sent)], to: roomID)
        let received = try #require(try await alice.history(roomID).messages.last?.parts.first?.file)
        #expect(received.name == "plan.pdf" && received.size == 8 && received.contentType == "application/pdf")
        #expect(received.url == "/v1/attachments/\(attachment.id)/content")
    }

    @Test func theCacheShowsRoomsAndMessagesAfterARestartOffline() async throws {
        let path = temporaryPath("cache")
        let first = try makeClient(server, "alice", clock: clock, storePath: path)
        let roomID = try await room(first)
        server.post("cached", as: "bob", in: roomID)
        _ = try await first.myRooms()
        var events = try await first.roomEvents(roomID, after: 0).makeAsyncIterator()
        try await first.connect()
        _ = await read(&events) { messages($0).count >= 1 }
        await first.close()
        server.setReachable(false)
        let second = try makeClient(server, "alice", clock: clock, storePath: path)
        #expect(try await second.cachedRooms().map(\.id) == [roomID])
        #expect(try await second.cachedMessages(roomID).map(\.text) == ["cached"])
    }
}
