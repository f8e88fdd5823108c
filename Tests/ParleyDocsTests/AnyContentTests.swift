import ParleyDocs
import ParleyStore
import ParleyText
import Testing

/// Updates of any Yjs content (hand-encoded, format v1) that the server replica must accept.
enum AnyContentUpdates {
    /// Client 5 sets `meta["k"] = "v"` in a root map named "meta".
    static let mapSet: [UInt8] = [1, 1, 5, 0, 0x28, 1, 4, 0x6D, 0x65, 0x74, 0x61, 1, 0x6B, 1, 0x77, 1, 0x76, 0]
    /// Client 6 then sets `meta["k"] = 5` (its left origin is client 5's value).
    static let mapOverwrite: [UInt8] = [1, 1, 6, 0, 0x88, 5, 0, 1, 0x7D, 5, 0]
    /// Client 7 inserts a bold "hi" in a root text named "content": format, text, format end.
    static let boldText: [UInt8] = [
        1, 3, 7, 0,
        0x06, 1, 7, 0x63, 0x6F, 0x6E, 0x74, 0x65, 0x6E, 0x74, 4, 0x62, 0x6F, 0x6C, 0x64, 4, 0x74, 0x72, 0x75, 0x65,
        0x84, 7, 0, 2, 0x68, 0x69,
        0x86, 7, 2, 4, 0x62, 0x6F, 0x6C, 0x64, 4, 0x6E, 0x75, 0x6C, 0x6C,
        0
    ]
}

@Suite("Documents service: any Yjs content")
struct AnyContentTests {
    @Test func mapsAndFormattedTextUnderAnyRootNameAreAcceptedStoredAndServed() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "board", access: .room(fixture.roomID), by: "alice")
            let alice = DocumentParticipant(userID: "alice", connectionID: "a")
            _ = try await service.join(alice, documentID: doc.id)
            for update in [AnyContentUpdates.mapSet, AnyContentUpdates.boldText] {
                _ = try await service.handleSync(alice, documentID: doc.id, message: YSyncMessage.update(update).encode())
            }
            #expect(publisher.take().count == 2)
            var expected = YDocument()
            try expected.applyUpdate(AnyContentUpdates.mapSet)
            try expected.applyUpdate(AnyContentUpdates.boldText)
            #expect(try await service.encodedState(documentID: doc.id).state == expected.encodeStateAsUpdate())

            let reopened = try await fixture.reopened()
            let again = reopened.service(publisher: RecordingPublisher())
            #expect(try await again.encodedState(documentID: doc.id).state == expected.encodeStateAsUpdate())
            #expect(try await again.text(documentID: doc.id) == "")
            await reopened.close()
        }
    }

    @Test func anUpdateWhoseDependenciesAreMissingWaitsIsRelayedAndIntegratesLater() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "late", access: .room(fixture.roomID), by: "alice")
            let alice = DocumentParticipant(userID: "alice", connectionID: "a")
            let bob = DocumentParticipant(userID: "bob", connectionID: "b")
            _ = try await service.join(alice, documentID: doc.id)
            _ = try await service.handleSync(
                alice, documentID: doc.id,
                message: YSyncMessage.update(AnyContentUpdates.mapOverwrite).encode())
            #expect(publisher.take().count == 1, "stored and forwarded although it cannot integrate yet")
            // A peer that syncs now gets the waiting update after its step 2.
            _ = try await service.join(bob, documentID: doc.id)
            let replies = try await service.handleSync(
                bob, documentID: doc.id,
                message: YSyncMessage.syncStep1(stateVector: [0]).encode())
            #expect(replies.contains(YSyncMessage.update(AnyContentUpdates.mapOverwrite).encode()))
            #expect(try await service.encodedState(documentID: doc.id).pending == [AnyContentUpdates.mapOverwrite])

            _ = try await service.handleSync(bob, documentID: doc.id, message: YSyncMessage.update(AnyContentUpdates.mapSet).encode())
            let (state, pending) = try await service.encodedState(documentID: doc.id)
            #expect(pending.isEmpty)
            var check = YDocument()
            try check.applyUpdate(state)
            #expect(check.stateVector == [5: 1, 6: 1] && !check.hasPendingUpdates)
        }
    }
}
