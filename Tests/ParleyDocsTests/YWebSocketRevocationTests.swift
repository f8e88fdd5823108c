import ParleyDocs
import ParleyStore
import ParleyWire
import Testing

/// A y-websocket session whose user's access ends: it knows its document's room, closes with
/// 4410 when revoked, and a re-check after a racing revocation closes it the same way.
@Suite("y-websocket session revocation")
struct YWebSocketRevocationTests {
    @Test func sessionsKnowTheirRoomAndCloseWith4410WhenRevoked() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            let listed = try await service.createDocument(name: "l", access: .users(["alice"]), by: "alice")
            var bob = YWebSocketSession(service: service, userID: "bob", connectionID: "b", documentID: doc.id)
            var alice = YWebSocketSession(service: service, userID: "alice", connectionID: "a", documentID: listed.id)
            _ = await bob.open()
            _ = await alice.open()
            #expect(bob.ownerRoomID == fixture.roomID)
            #expect(alice.ownerRoomID == nil)
            #expect(await bob.revoke(reason: "member_removed") == [.close(YWebSocketSession.revokedCode, reason: "member_removed")])
            #expect(bob.state == .closed)
            #expect(await bob.revoke(reason: "member_removed").isEmpty, "once")
            #expect(YWebSocketSession.revokedCode.rawValue == 4410)
        }
    }

    @Test func aRecheckAfterTheMembershipEndedCloses() async throws {
        try await withFixture { fixture in
            let service = fixture.service(publisher: RecordingPublisher())
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            var bob = YWebSocketSession(service: service, userID: "bob", connectionID: "b", documentID: doc.id)
            var alice = YWebSocketSession(service: service, userID: "alice", connectionID: "a", documentID: doc.id)
            _ = await bob.open()
            _ = await alice.open()
            #expect(try await fixture.chat.removeMember(app: DocsFixture.app, room: fixture.roomID, user: "bob"))
            #expect(await alice.recheckAccess(reason: "access_ended").isEmpty)
            #expect(alice.state == .open)
            #expect(await bob.recheckAccess(reason: "access_ended") == [.close(YWebSocketSession.revokedCode, reason: "access_ended")])
            #expect(bob.state == .closed)
        }
    }
}
