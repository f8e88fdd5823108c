import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Cached room members")
struct RoomMembersCacheTests {
    let a = ChatHarness.appA

    /// The users who got `room.activity` for the last message sent.
    func activityRecipients(_ h: ChatHarness) -> Set<String> {
        let prefix = "#server-to-user-"
        return Set(h.publisher.events.filter { $0.name == "room.activity" }.map { String($0.channel.dropFirst(prefix.count)) })
    }

    @Test(arguments: ChatEngine.available)
    func membershipChangesAreSeenByTheNextSend(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol", "dave")
            let room = await h.createRoom("alice", members: ["bob"])
            await h.send("alice", room: room, "one")
            #expect(activityRecipients(h) == ["alice", "bob"])
            #expect(h.service.roomMembers.count == 1)

            h.publisher.clear()
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/members", as: .user("alice", app: a), json: .object(["user_id": .string("carol")]))
                    .status == 201)
            await h.send("alice", room: room, "two")
            #expect(activityRecipients(h) == ["alice", "bob", "carol"])

            h.publisher.clear()
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a)).status == 204)
            await h.send("carol", room: room, "three")
            #expect(activityRecipients(h) == ["alice", "carol"])

            h.publisher.clear()
            #expect(await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("carol", app: a)).status == 204)
            await h.send("alice", room: room, "four")
            #expect(activityRecipients(h) == ["alice"])

            // A public room joined by dave; then dave's account is deleted.
            let open = await h.createRoom("alice", kind: "public")
            await h.send("alice", room: open, "hello")
            #expect(await h.call(.POST, "/v1/rooms/\(open)/join", as: .user("dave", app: a)).status == 201)
            h.publisher.clear()
            await h.send("alice", room: open, "welcome")
            #expect(activityRecipients(h) == ["alice", "dave"])
            #expect(await h.call(.DELETE, "/v1/users/dave", as: .app(a)).status == 204)
            h.publisher.clear()
            await h.send("alice", room: open, "bye")
            #expect(activityRecipients(h) == ["alice"])
        }
    }

    @Test(arguments: ChatEngine.available)
    func aRemovedMemberCannotReadHistoryFromTheCache(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "eve")
            let room = await h.createRoom("alice", members: ["bob"])
            await h.send("alice", room: room, "secret")
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a)).status == 200)
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("eve", app: a)).errorCode == "not_member")
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a)).status == 204)
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a)).errorCode == "not_member")
            #expect(await h.call(.GET, "/v1/rooms/nope/messages", as: .user("bob", app: a)).errorCode == "room_not_found")
            // A deleted room is gone for its former members too.
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("alice", app: a)).status == 200)
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)", as: .user("alice", app: a)).status == 204)
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("alice", app: a)).errorCode == "room_not_found")
        }
    }

    @Test func roomsOverTheFanOutLimitGetNoActivityEvents() async throws {
        var limits = ChatLimits.unthrottled
        limits.activityFanoutMembers = 2
        try await ChatHarness.with(limits: limits) { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            await h.send("alice", room: room, "hi")
            #expect(activityRecipients(h).isEmpty)
            #expect(h.publisher.names(on: "private-room-\(room)").contains("message.created"))
            // Membership is still checked exactly for such rooms.
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("carol", app: a)).status == 200)
        }
    }

    @Test func aListReadBeforeAChangeIsNotKept() {
        let cache = RoomMembersCache(capacity: 10)
        let key = RoomMembersCache.Key(app: "1", room: "r")
        let (missing, generation) = cache.lookup(key)
        #expect(missing == nil)
        // A membership write finishes while the list is being read: the stale list is dropped.
        cache.invalidate()
        cache.store(key, .all(["alice"]), readAt: generation)
        #expect(cache.lookup(key).members == nil)
        let (_, current) = cache.lookup(key)
        cache.store(key, .all(["alice", "bob"]), readAt: current)
        #expect(cache.lookup(key).members == .all(["alice", "bob"]))
        cache.invalidate()
        #expect(cache.lookup(key).members == nil && cache.count == 0)
    }

    @Test func cacheStaysWithinItsCapacity() {
        let cache = RoomMembersCache(capacity: 3)
        for room in 0..<10 {
            let key = RoomMembersCache.Key(app: "1", room: "r\(room)")
            cache.store(key, .tooMany, readAt: cache.lookup(key).generation)
            #expect(cache.count <= 3)
            #expect(cache.lookup(key).members == .tooMany)
        }
        let off = RoomMembersCache(capacity: 0)
        off.store(RoomMembersCache.Key(app: "1", room: "r"), .tooMany, readAt: 0)
        #expect(off.count == 0)
    }
}
