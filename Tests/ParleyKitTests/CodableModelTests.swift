import Foundation
import Testing

@testable import ParleyKit

/// The app's own shape of a room's custom data.
struct RoomSettings: Codable, Equatable, Sendable {
    var topic: String
    var pinned: [Int64]
    var muted: Bool
}

/// Codable models (each in the server's JSON form) and custom data as the app's own types.
@Suite struct CodableModelTests {
    @Test func modelsFromARealServerRoundTripThroughJSONEncoderAndDecoder() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "codable", memberIDs: [try await bob.userID()])
        let settings = RoomSettings(topic: "launch 🚀", pinned: [1, 9_007_199_254_740_993], muted: false)
        let updated = try await alice.updateRoom(room.id, customData: settings)
        let message = try #require(try await alice.send([.text("hi"), .url("https://example.org")], to: room.id).message)
        let summaries = try await bob.myRooms()
        let members = try await alice.members(of: room.id)
        let me = try await alice.me()
        let cursors = try await alice.cursors(in: room.id)

        let encoder = JSONEncoder(), decoder = JSONDecoder()
        // Custom data objects compare by member order, which JSONDecoder does not keep: compare it decoded.
        let decodedRoom = try decoder.decode(ChatRoom.self, from: encoder.encode(updated))
        #expect(try decodedRoom.decodeCustomData(as: RoomSettings.self) == settings)
        var withoutData = decodedRoom, expectedRoom = updated
        withoutData.customData = nil
        expectedRoom.customData = nil
        #expect(withoutData == expectedRoom)
        #expect(try decoder.decode(ChatMessage.self, from: encoder.encode(message)) == message)
        #expect(try decoder.decode([RoomSummary].self, from: encoder.encode(summaries)).map(\.room.id) == summaries.map(\.room.id))
        #expect(try decoder.decode([Membership].self, from: encoder.encode(members)) == members)
        #expect(try decoder.decode(ChatUser.self, from: encoder.encode(me)) == me)
        #expect(try decoder.decode([ReadCursor].self, from: encoder.encode(cursors)) == cursors)
        let page = MessagePage(messages: [message], hasMore: true)
        #expect(try decoder.decode(MessagePage.self, from: encoder.encode(page)) == page)

        // The encoded form is the server's: its answer decodes with JSONDecoder directly.
        let wire = try JSONSerialization.jsonObject(with: encoder.encode(message)) as? [String: Any]
        #expect(wire?["room_id"] as? String == room.id && wire?["seq"] as? Int == Int(message.seq))

        // Custom data as the app's type, both ways, a 2^53+1 integer intact.
        #expect(try updated.decodeCustomData(as: RoomSettings.self) == settings)
        #expect(try await bob.room(room.id).decodeCustomData() == settings)
        var copy = updated
        try copy.setCustomData(["topic": "other"])
        #expect(try copy.decodeCustomData(as: [String: String].self) == ["topic": "other"])
        #expect(try room.decodeCustomData(as: RoomSettings?.self) == nil, "a room without custom data reads as nil")
        #expect(throws: ParleyError.self) { try updated.decodeCustomData(as: [String].self) }

        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func aModelThatDoesNotDecodeFailsWithADecodingError() throws {
        let data = Data(#"{"id": "r", "kind": "castle"}"#.utf8)
        #expect(throws: ParleyError.self) { try JSONDecoder().decode(ChatRoom.self, from: data) }
        let role = try JSONDecoder().decode([MemberRole].self, from: Data(#"["admin","member"]"#.utf8))
        #expect(role == [.admin, .member])
    }
}
