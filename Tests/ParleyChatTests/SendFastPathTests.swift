import ParleyWire
import Testing

@testable import ParleyChat

/// A plain send decides moderation from the cached room state without an async step
/// (ChatService+SendFastPath.swift). Once that state is cached, mutes, slow mode and blocks
/// between the two members of a direct room must still refuse every send they refused before.
@Suite("Send fast path")
struct SendFastPathTests {
    let a = ChatHarness.appA

    @Test(arguments: ChatEngine.available)
    func aCachedRoomStateStillRefusesMutedSenders(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            #expect(await h.send("bob", room: room, "before").status == 201)
            let muted = await h.call(
                .POST, "/v1/rooms/\(room)/mutes", as: .user("alice", app: a), json: .object(["user_id": .string("bob")]))
            #expect(muted.status == 201)
            // The first refusal reads the state from the store and caches it; the rest find it cached.
            for text in ["one", "two", "three"] {
                #expect(await h.send("bob", room: room, text).errorCode == "muted", "\(text)")
            }
            #expect(await h.send("alice", room: room, "others still send").status == 201)
        }
    }

    @Test(arguments: ChatEngine.available)
    func aCachedDirectRoomStillRefusesBlockedMembers(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let direct = await h.call(.POST, "/v1/rooms/direct", as: .user("alice", app: a), json: .object(["user_id": .string("bob")]))
            let room = try #require(direct["id"]?.stringValue)
            #expect(await h.send("bob", room: room, "before").status == 201)
            #expect(await h.call(.PUT, "/v1/me/blocks/bob", as: .user("alice", app: a)).status == 201)
            for sender in ["alice", "bob", "alice", "bob"] {
                #expect(await h.send(sender, room: room, "hi").errorCode == "user_blocked", "\(sender)")
            }
        }
    }
}
