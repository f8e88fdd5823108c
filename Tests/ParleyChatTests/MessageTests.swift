import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Messages, history, reactions, unread counts")
struct MessageTests {
    let a = ChatHarness.appA

    func text(_ value: String) -> JSONValue { .array([.object(["type": .string("text"), "text": .string(value)])]) }

    @Test(arguments: ChatEngine.available)
    func idempotentSendAndOutsiders(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "eve")
            let room = await h.createRoom("alice", members: ["bob"])
            let first = await h.send("alice", room: room, "hello", clientID: "c-1")
            #expect(first.status == 201 && first["seq"]?.intValue == 1 && first["client_id"]?.stringValue == "c-1")
            let retry = await h.send("alice", room: room, "hello", clientID: "c-1")
            #expect(retry.status == 200 && retry["id"] == first["id"] && retry["seq"]?.intValue == 1)
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a))
            #expect(history["messages"]?.arrayValue?.count == 1)
            #expect(h.publisher.names(on: "private-room-\(room)").filter { $0 == "message.created" }.count == 1)

            // An outsider can neither read nor post nor see one message.
            #expect(await h.send("eve", room: room, "hi").errorCode == "not_member")
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("eve", app: a)).errorCode == "not_member")
            let id = first["id"]?.intValue ?? 0
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages/\(id)", as: .user("eve", app: a)).errorCode == "not_member")
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages/\(id)", as: .user("bob", app: a))["id"] == first["id"])
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages/999999", as: .user("bob", app: a)).errorCode == "message_not_found")
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages/abc", as: .user("bob", app: a)).errorCode == "invalid_parameter")

            // The app may send as a member.
            let byApp = await h.call(
                .POST, "/v1/rooms/\(room)/messages", as: .app(a),
                json: .object(["sender_id": .string("bob"), "parts": text("from the backend")]))
            #expect(byApp.status == 201 && byApp["sender_id"]?.stringValue == "bob")
        }
    }

    @Test func partsAreValidated() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let parts: JSONValue = .array([
                .object(["type": .string("text"), "text": .string("see")]),
                .object(["type": .string("url"), "url": .string("https://example.com")])
            ])
            let sent = await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["parts": parts]))
            #expect(sent.status == 201 && sent["parts"] == parts)
            let long = await h.send("alice", room: room, String(repeating: "é", count: 4001))
            #expect(long.status == 422)
            let eleven = JSONValue.array(Array(repeating: .object(["type": .string("text"), "text": .string("x")]), count: 11))
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["parts": eleven])).status
                    == 422)
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["parts": .array([])])).status
                    == 422)
            let unknown: JSONValue = .array([.object(["type": .string("video")])])
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["parts": unknown])).errorCode
                    == "invalid_request")
            #expect(
                await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: .object(["text": .string("x")]))
                    .errorCode == "invalid_request")
        }
    }

    @Test(arguments: ChatEngine.available)
    func historyPagesJoinWithoutGapsOrDuplicates(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            for index in 1...120 { await h.send(index % 2 == 0 ? "alice" : "bob", room: room, "m\(index)") }

            let latest = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a))
            let latestSeqs = latest["messages"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
            #expect(latestSeqs == Array(71...120))
            #expect(latest["has_more"] == .bool(true))

            // Backwards with `before` until the beginning.
            var seen: [Int] = []
            var before: Int? = nil
            while true {
                let query = before.map { "?limit=30&before=\($0)" } ?? "?limit=30"
                let page = await h.call(.GET, "/v1/rooms/\(room)/messages\(query)", as: .user("bob", app: a))
                let seqs = page["messages"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
                seen = seqs + seen
                guard page["has_more"] == .bool(true), let first = seqs.first else { break }
                before = first
            }
            #expect(seen == Array(1...120))

            // Forwards with `after`, as a client filling a gap from its last seq.
            var forward: [Int] = []
            var after = 0
            while true {
                let page = await h.call(.GET, "/v1/rooms/\(room)/messages?limit=100&after=\(after)", as: .user("bob", app: a))
                let seqs = page["messages"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
                forward += seqs
                guard page["has_more"] == .bool(true), let last = seqs.last else { break }
                after = last
            }
            #expect(forward == Array(1...120))
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages?limit=101", as: .user("bob", app: a)).errorCode == "invalid_parameter")
            #expect(await h.call(.GET, "/v1/rooms/\(room)/messages?before=-1", as: .user("bob", app: a)).errorCode == "invalid_parameter")
            let between = await h.call(.GET, "/v1/rooms/\(room)/messages?after=10&before=14", as: .user("bob", app: a))
            #expect(between["messages"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == [11, 12, 13])
        }
    }

    @Test(arguments: ChatEngine.available)
    func editDeleteAndReactions(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            let sent = await h.send("bob", room: room, "typo")
            let id = sent["id"]?.intValue ?? 0
            let path = "/v1/rooms/\(room)/messages/\(id)"

            #expect(await h.call(.PATCH, path, as: .user("carol", app: a), json: .object(["parts": text("x")])).errorCode == "not_author")
            let edited = await h.call(.PATCH, path, as: .user("bob", app: a), json: .object(["parts": text("fixed")]))
            #expect(
                edited.status == 200 && edited["parts"] == text("fixed") && edited["edited_at"] != .null && edited["seq"]?.intValue == 1)

            let smile = await h.call(.PUT, path + "/reactions/smile", as: .user("carol", app: a))
            #expect(smile["reactions"] == .array([.object(["emoji": .string("smile"), "count": .int(1)])]))
            _ = await h.call(.PUT, path + "/reactions/smile", as: .user("alice", app: a))
            _ = await h.call(.PUT, path + "/reactions/smile", as: .user("alice", app: a))
            let afterRemove = await h.call(.DELETE, path + "/reactions/smile", as: .user("carol", app: a))
            #expect(afterRemove["reactions"] == .array([.object(["emoji": .string("smile"), "count": .int(1)])]))
            #expect(await h.call(.PUT, path + "/reactions/smile", as: .app(a)).errorCode == "user_token_required")
            let reactionEvents = h.publisher.events(on: "private-room-\(room)").filter { $0.name == "reaction.changed" }
            #expect(reactionEvents.map { $0.data["action"]?.stringValue } == ["added", "added", "removed"])

            // A member who is neither author nor admin may not delete; a room admin may.
            #expect(await h.call(.DELETE, path, as: .user("carol", app: a)).errorCode == "not_author")
            let tombstone = await h.call(.DELETE, path, as: .user("alice", app: a))
            #expect(tombstone.status == 200 && tombstone["deleted"] == .bool(true) && tombstone["parts"] == .array([]))
            #expect(tombstone["seq"]?.intValue == 1 && tombstone["reactions"] == .array([]))
            #expect(await h.call(.PATCH, path, as: .user("bob", app: a), json: .object(["parts": text("again")])).errorCode == "conflict")
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("carol", app: a))
            #expect(history["messages"]?.arrayValue?.first?["deleted"] == .bool(true))
            let names = h.publisher.names(on: "private-room-\(room)")
            #expect(names.filter { $0.hasPrefix("message.") } == ["message.created", "message.updated", "message.deleted"])
            // Deleting twice is harmless and announces nothing new.
            #expect(await h.call(.DELETE, path, as: .user("bob", app: a)).status == 200)
            #expect(h.publisher.names(on: "private-room-\(room)").filter { $0 == "message.deleted" }.count == 1)
        }
    }

    @Test(arguments: ChatEngine.available)
    func unreadCountsFollowReadsAndNewMessages(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let quiet = await h.createRoom("alice", members: ["bob"])
            let busy = await h.createRoom("alice", members: ["bob"])
            await h.send("alice", room: quiet, "old")
            for index in 1...3 { await h.send("alice", room: busy, "n\(index)") }

            func summaries() async -> [JSONValue] {
                await h.call(.GET, "/v1/me/rooms", as: .user("bob", app: a))["rooms"]?.arrayValue ?? []
            }
            var rooms = await summaries()
            #expect(rooms.compactMap { $0["room"]?["id"]?.stringValue } == [busy, quiet])
            #expect(rooms.first?["unread_count"]?.intValue == 3)
            #expect(rooms.first?["last_message"]?["parts"] == text("n3"))
            #expect(rooms.first?["room"]?["member_count"]?.intValue == 2)

            let cursor = await h.call(.PUT, "/v1/rooms/\(busy)/cursor", as: .user("bob", app: a), json: .object(["seq": .int(2)]))
            #expect(cursor["seq"]?.intValue == 2)
            #expect(await summaries().first?["unread_count"]?.intValue == 1)
            // Cursors never move backwards.
            #expect(
                await h.call(.PUT, "/v1/rooms/\(busy)/cursor", as: .user("bob", app: a), json: .object(["seq": .int(1)]))["seq"]?.intValue
                    == 2)
            await h.send("alice", room: busy, "n4")
            #expect(await summaries().first?["unread_count"]?.intValue == 2)
            // Bob's own message does not count, and moves his cursor.
            await h.send("bob", room: busy, "mine")
            rooms = await summaries()
            #expect(rooms.first?["unread_count"]?.intValue == 0)
            await h.send("alice", room: quiet, "newer")
            rooms = await summaries()
            #expect(rooms.compactMap { $0["room"]?["id"]?.stringValue } == [quiet, busy])
            #expect(rooms.first?["unread_count"]?.intValue == 2)

            // Read cursors show who saw what ("seen").
            let cursors = await h.call(.GET, "/v1/rooms/\(busy)/cursors", as: .user("alice", app: a))["cursors"]?.arrayValue ?? []
            #expect(cursors.first { $0["user_id"]?.stringValue == "bob" }?["seq"]?.intValue == 5)
            #expect(
                await h.call(.PUT, "/v1/rooms/\(busy)/cursor", as: .app(a), json: .object(["seq": .int(1)])).errorCode
                    == "user_token_required")
            #expect(
                await h.call(.PUT, "/v1/rooms/\(busy)/cursor", as: .user("bob", app: a), json: .object(["seq": .string("1")])).errorCode
                    == "invalid_request")
        }
    }

    @Test func sendsAreRateLimited() async throws {
        var limits = ChatLimits()
        limits.sendsPerSecond = 1
        limits.sendBurst = 2
        try await ChatHarness.with(limits: limits) { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            #expect(await h.send("alice", room: room, "1").status == 201)
            #expect(await h.send("alice", room: room, "2").status == 201)
            let limited = await h.send("alice", room: room, "3")
            #expect(limited.status == 429 && limited.errorCode == "rate_limited")
            #expect(limited.headers.first("Retry-After") == "1")
            h.clock.advance(seconds: 1)
            #expect(await h.send("alice", room: room, "4").status == 201)
        }
    }
}
