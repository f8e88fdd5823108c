import ParleyDocs
import ParleyText
import ParleyWire
import Testing

/// A cursor's `user.id` in a document's awareness is the id the server verified for the
/// connection, whatever the client wrote.
@Suite("Documents service: awareness identity")
struct AwarenessIdentityTests {
    private func awareness(_ client: UInt64, _ state: String) -> [UInt8] {
        YSyncMessage.awareness(AwarenessUpdate(entries: [.init(clientID: client, clock: 1, state: state)])).encode()
    }

    private func relayedState(_ publisher: RecordingPublisher) throws -> JSONValue? {
        let relayed = publisher.take()
        guard relayed.count == 1, case .awareness(let update) = try YSyncMessage.decode(relayed[0].message),
            let state = update.entries.first?.state
        else { return nil }
        return try JSONParser.parse(Array(state.utf8))
    }

    @Test func aForgedUserIDIsReplacedByTheVerifiedOne() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            let bob = DocumentParticipant(userID: "bob", connectionID: "b")
            _ = try await service.join(bob, documentID: doc.id)

            _ = try await service.handleSync(
                bob, documentID: doc.id,
                message: awareness(7, #"{"user":{"id":"alice","name":"Alice"},"cursor":{"anchor":1,"head":1}}"#))
            let forged = try relayedState(publisher)
            #expect(forged?["user"]?["id"] == .string("bob") && forged?["user"]?["name"] == .string("Alice"))
            #expect(forged?["cursor"]?["head"] == .int(1))

            // A user object without an id gets the verified one; a state without one is left alone.
            _ = try await service.handleSync(bob, documentID: doc.id, message: awareness(8, #"{"user":{"name":"B"}}"#))
            #expect(try relayedState(publisher)?["user"]?["id"] == .string("bob"))
            _ = try await service.handleSync(bob, documentID: doc.id, message: awareness(9, #"{"cursor":2}"#))
            #expect(try relayedState(publisher) == .object(["cursor": .int(2)]))
        }
    }
}
