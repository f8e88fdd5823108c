import ParleyWire
import Testing

@testable import ParleyChat

/// Moderation on the service with the harness's manual clock: slow mode and mutes end when the
/// clock says so, a refused send gives its slow-mode slot back, and a ban's events and
/// revocation come out in order.
@Suite("Moderation")
struct ModerationTests {
    let a = ChatHarness.appA

    @Test(arguments: ChatEngine.available)
    func slowModePacesMembersUntilTheirSecondsPass(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            #expect(
                await h.call(
                    .PATCH, "/v1/rooms/\(room)/members/carol", as: .user("alice", app: a), json: .object(["role": .string("moderator")])
                )
                .status == 200)
            let set = await h.call(
                .PATCH, "/v1/rooms/\(room)/moderation", as: .user("carol", app: a), json: .object(["slow_mode_seconds": .int(10)]))
            #expect(set.status == 200 && set["slow_mode_seconds"] == .int(10))
            #expect(h.publisher.names(on: "private-room-\(room)").contains("room.moderation_updated"))

            // A send the store refuses does not spend the member's slot.
            let orphan = await h.call(
                .POST, "/v1/rooms/\(room)/messages", as: .user("bob", app: a),
                json: .object(["parts": .array([.object(["type": .string("text"), "text": .string("re")])]), "parent_id": .int(999_999)]))
            #expect(orphan.errorCode == "parent_not_found")
            #expect(await h.send("bob", room: room, "one").status == 201)
            let refused = await h.send("bob", room: room, "two")
            #expect(refused.status == 429 && refused.errorCode == "slow_mode")
            #expect(refused.headers.first("Retry-After") == "10")
            h.clock.advance(seconds: 6)
            #expect(await h.send("bob", room: room, "three").headers.first("Retry-After") == "4")
            h.clock.advance(seconds: 4)
            #expect(await h.send("bob", room: room, "four").status == 201)
            for text in ["m1", "m2"] { #expect(await h.send("carol", room: room, text).status == 201, "moderators are not paced") }
        }
    }

    @Test(arguments: ChatEngine.available)
    func aMuteWithADurationEndsOnItsOwn(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            let muted = await h.call(
                .POST, "/v1/rooms/\(room)/mutes", as: .user("alice", app: a),
                json: .object(["user_id": .string("bob"), "duration_seconds": .int(60), "reason": .string("cool off")]))
            #expect(muted.status == 201 && muted["reason"] == .string("cool off"))
            #expect(await h.send("bob", room: room, "hi").errorCode == "muted")
            h.clock.advance(seconds: 61)
            #expect(await h.send("bob", room: room, "hi again").status == 201)
            let both = await h.call(
                .POST, "/v1/rooms/\(room)/mutes", as: .user("alice", app: a),
                json: .object(["user_id": .string("bob"), "duration_seconds": .int(60), "until": .int(1)]))
            #expect(both.errorCode == "validation_failed")
            let past = await h.call(
                .POST, "/v1/rooms/\(room)/mutes", as: .user("alice", app: a), json: .object(["user_id": .string("bob"), "until": .int(1)]))
            #expect(past.errorCode == "validation_failed")
        }
    }

    @Test func aBanAnnouncesThenRevokesWithItsReason() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            h.publisher.clear()
            let banned = await h.call(
                .POST, "/v1/rooms/\(room)/bans", as: .user("alice", app: a), json: .object(["user_id": .string("bob")]))
            #expect(banned.status == 201 && banned["kind"] == .string("ban") && banned["until"] == .null)
            #expect(h.publisher.names(on: "private-room-\(room)") == ["member.left", "member.banned"])
            #expect(h.publisher.names(on: "#server-to-user-bob") == ["room.removed", "room.banned"])
            #expect(h.publisher.revocations.map(\.reason) == ["banned"])
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/members", as: .app(a), json: .object(["user_id": .string("bob")])).errorCode
                    == "banned")
            let direct = await h.call(.POST, "/v1/rooms/direct", as: .user("alice", app: a), json: .object(["user_id": .string("bob")]))
            let moderateDirect = await h.call(
                .POST, "/v1/rooms/\(direct["id"]?.stringValue ?? "")/bans", as: .app(a), json: .object(["user_id": .string("bob")]))
            #expect(moderateDirect.errorCode == "direct_room_fixed")
        }
    }
    @Test(arguments: ChatEngine.available)
    func slowModeHoldsAcrossTwoNodes(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            let set = await h.call(
                .PATCH, "/v1/rooms/\(room)/moderation", as: .user("alice", app: a), json: .object(["slow_mode_seconds": .int(10)]))
            #expect(set.status == 200)
            try await h.withSecondNode { other in
                #expect(await h.send("bob", room: room, "one").status == 201)
                let refused = await other.send("bob", room: room, "two")
                #expect(refused.status == 429 && refused.errorCode == "slow_mode", "the other node knows the first send")
                #expect(refused.headers.first("Retry-After") == "10")
                h.clock.advance(seconds: 3)
                #expect(await other.send("bob", room: room, "three").headers.first("Retry-After") == "7")
                h.clock.advance(seconds: 7)
                #expect(await other.send("bob", room: room, "four").status == 201)
                let back = await h.send("bob", room: room, "five")
                #expect(back.status == 429 && back.headers.first("Retry-After") == "10")
                #expect(await other.send("alice", room: room, "owners are not paced").status == 201)
            }
            let texts = (await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("alice", app: a)))["messages"]?.arrayValue?
                .compactMap { $0["parts"]?.arrayValue?.first?["text"]?.stringValue }
            #expect(texts == ["one", "four", "owners are not paced"])
        }
    }

    @Test(arguments: ChatEngine.available)
    func aBlockedUsersReactionsAreLeftOutOfTheBlockersCounts(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            let sent = await h.send("carol", room: room, "vote please")
            let id = try #require(sent["id"]?.intValue)
            let path = "/v1/rooms/\(room)/messages/\(id)"
            for (user, emoji) in [("bob", "smile"), ("carol", "smile"), ("bob", "tada")] {
                #expect(await h.call(.PUT, path + "/reactions/\(emoji)", as: .user(user, app: a)).status == 200)
            }
            #expect(await h.call(.PUT, "/v1/me/blocks/bob", as: .user("alice", app: a)).status == 201)
            func counts(_ json: JSONValue?) -> [String: Int] {
                var counts: [String: Int] = [:]
                for reaction in json?["reactions"]?.arrayValue ?? [] {
                    counts[reaction["emoji"]?.stringValue ?? ""] = reaction["count"]?.intValue
                }
                return counts
            }
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("alice", app: a))
            #expect(counts(history["messages"]?.arrayValue?.first) == ["smile": 1], "bob's reactions are not counted for alice")
            #expect(counts(await h.call(.GET, path, as: .user("alice", app: a)).json) == ["smile": 1])
            let search = await h.call(.GET, "/v1/rooms/\(room)/search?q=vote", as: .user("alice", app: a))
            #expect(counts(search["results"]?.arrayValue?.first?["message"]) == ["smile": 1])
            let others = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("carol", app: a))
            #expect(counts(others["messages"]?.arrayValue?.first) == ["smile": 2, "tada": 1], "carol blocks no one")
            #expect(counts(await h.call(.GET, path, as: .app(a)).json) == ["smile": 2, "tada": 1])

            let added = await h.call(.PUT, path + "/reactions/smile", as: .user("alice", app: a))
            #expect(counts(added.json) == ["smile": 2], "alice's own reaction is answered as her history shows it")
            let removed = await h.call(.DELETE, path + "/reactions/smile", as: .user("alice", app: a))
            #expect(counts(removed.json) == ["smile": 1])
            #expect(counts(await h.call(.PUT, path + "/reactions/smile", as: .user("carol", app: a)).json) == ["smile": 2, "tada": 1])
            let events = h.publisher.events(on: "private-room-\(room)").filter { $0.name == "reaction.changed" }.suffix(2)
            #expect(events.map { counts($0.data) } == [["smile": 3, "tada": 1], ["smile": 2, "tada": 1]], "one broadcast, full counts")
        }
    }
}
