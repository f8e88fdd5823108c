import ParleyDocs
import ParleyText
import Testing

@Suite("Documents service: awareness")
struct DocumentsAwarenessTests {
    private func awareness(_ entries: [(UInt64, UInt64, String?)]) -> [UInt8] {
        YSyncMessage.awareness(AwarenessUpdate(entries: entries.map { .init(clientID: $0.0, clock: $0.1, state: $0.2) })).encode()
    }

    private func decodeAwareness(_ broadcast: DocumentBroadcast) throws -> AwarenessUpdate {
        guard case .awareness(let update) = try YSyncMessage.decode(broadcast.message) else {
            Issue.record("not an awareness message")
            return AwarenessUpdate(entries: [])
        }
        return update
    }

    @Test func awarenessIsRelayedOwnedAndRemovedOnLeave() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            let alice = DocumentParticipant(userID: "alice", connectionID: "a")
            let bob = DocumentParticipant(userID: "bob", connectionID: "b")
            _ = try await service.join(alice, documentID: doc.id)

            _ = try await service.handleSync(alice, documentID: doc.id, message: awareness([(100, 1, #"{"cursor":3}"#)]))
            var relayed = publisher.take()
            #expect(relayed.count == 1 && relayed[0].origin == alice && relayed[0].kind == .awareness)
            #expect(try decodeAwareness(relayed[0]).entries == [.init(clientID: 100, clock: 1, state: #"{"cursor":3}"#)])

            // Bob joins and gets everyone's awareness with the server's step 1.
            let opening = try await service.join(bob, documentID: doc.id)
            #expect(opening.count == 2)
            #expect(
                try YSyncMessage.decode(opening[1])
                    == .awareness(AwarenessUpdate(entries: [.init(clientID: 100, clock: 1, state: #"{"cursor":3}"#)])))

            // Bob cannot speak for alice's awareness client: not even to remove it.
            _ = try await service.handleSync(bob, documentID: doc.id, message: awareness([(100, 9, nil), (200, 1, "{}")]))
            relayed = publisher.take()
            #expect(relayed.count == 1)
            #expect(try decodeAwareness(relayed[0]).entries == [.init(clientID: 200, clock: 1, state: "{}")])
            let query = try await service.handleSync(bob, documentID: doc.id, message: YSyncMessage.queryAwareness.encode())
            #expect(
                try YSyncMessage.decode(query[0])
                    == .awareness(
                        AwarenessUpdate(entries: [
                            .init(clientID: 100, clock: 1, state: #"{"cursor":3}"#), .init(clientID: 200, clock: 1, state: "{}")
                        ])))

            // Alice disconnects: the others are told her client is gone.
            await service.leave(alice, documentID: doc.id)
            relayed = publisher.take()
            #expect(relayed.count == 1 && relayed[0].origin == nil)
            #expect(try decodeAwareness(relayed[0]).entries == [.init(clientID: 100, clock: 1, state: nil)])
        }
    }

    @Test func awarenessTimesOutByTheInjectedClock() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let clock = ManualClock()
            let service = fixture.service(publisher: publisher, clock: clock.storeClock)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            let alice = DocumentParticipant(userID: "alice", connectionID: "a")
            _ = try await service.join(alice, documentID: doc.id)
            _ = try await service.handleSync(alice, documentID: doc.id, message: awareness([(5, 1, "{}")]))
            _ = publisher.take()
            clock.advance(by: 29_999)
            await service.sweep()
            #expect(publisher.take().isEmpty)
            clock.advance(by: 1)
            await service.sweep()
            let relayed = publisher.take()
            #expect(relayed.count == 1)
            #expect(try decodeAwareness(relayed[0]).entries == [.init(clientID: 5, clock: 1, state: nil)])
        }
    }

    @Test func invalidAwarenessIsRefused() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            var configuration = DocumentsConfiguration()
            configuration.maxAwarenessStateBytes = 64
            configuration.maxAwarenessClientsPerParticipant = 2
            let service = fixture.service(publisher: publisher, configuration: configuration)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            let alice = DocumentParticipant(userID: "alice", connectionID: "a")
            await expectDocsError(.invalidAwareness) {
                try await service.handleSync(alice, documentID: doc.id, message: awareness([(1, 1, "{not json")]))
            }
            await expectDocsError(.invalidAwareness) {
                try await service.handleSync(
                    alice, documentID: doc.id, message: awareness([(1, 1, "[" + String(repeating: "1,", count: 40) + "1]")]))
            }
            await expectDocsError(.invalidAwareness) {
                try await service.handleSync(alice, documentID: doc.id, message: awareness([(1, 1, "{}"), (2, 1, "{}"), (3, 1, "{}")]))
            }
            #expect(publisher.take().isEmpty, "nothing of a refused awareness update is relayed")
        }
    }
}
