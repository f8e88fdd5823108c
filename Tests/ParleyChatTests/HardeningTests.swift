import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

/// Links use safe schemes, the user directory follows shared rooms, a room keeps an admin,
/// message bodies hold only documented keys, and typing names the token's user.
@Suite("Hardening")
struct HardeningTests {
    let a = ChatHarness.appA

    func part(_ fields: JSONObject) -> JSONValue { .object(["parts": .array([.object(fields)])]) }

    func sendURL(_ h: ChatHarness, room: String, _ url: String) async -> Reply {
        await h.call(
            .POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a),
            json: part(["type": .string("url"), "url": .string(url)]))
    }

    static let refusedLinks = [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<script>x</script>",
        "file:///etc/passwd", "vbscript:x", "//evil.example/x", "https", "http//x", "\thttps://x"
    ]
    static let allowedLinks = ["https://example.com/a?b=c", "HTTP://example.com", "mailto:someone@example.com"]

    @Test func linkSchemes() {
        for url in Self.refusedLinks { #expect(!LinkScheme.isAllowed(url), "\(url)") }
        for url in Self.allowedLinks { #expect(LinkScheme.isAllowed(url), "\(url)") }
    }

    @Test func messageLinksMustUseAnAllowedScheme() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            for url in Self.refusedLinks {
                let reply = await sendURL(h, room: room, url)
                #expect(reply.status == 422 && reply.errorCode == "url_scheme_not_allowed", "\(url): \(reply.json)")
            }
            for url in Self.allowedLinks { #expect(await sendURL(h, room: room, url).status == 201, "\(url)") }
            let sent = try #require(await h.send("alice", room: room, "hi")["id"]?.intValue)
            let edit = await h.call(
                .PATCH, "/v1/rooms/\(room)/messages/\(sent)", as: .user("alice", app: a),
                json: part(["type": .string("url"), "url": .string("data:,x")]))
            #expect(edit.errorCode == "url_scheme_not_allowed")
        }
    }

    @Test func avatarURLsMustUseAnAllowedScheme() async throws {
        try await ChatHarness.with { h in
            let created = await h.call(
                .POST, "/v1/users", as: .app(a),
                json: .object(["id": .string("eve"), "name": .string("Eve"), "avatar_url": .string("javascript:alert(1)")]))
            #expect(created.status == 422 && created.errorCode == "url_scheme_not_allowed")
            await h.createUsers("alice")
            let patched = await h.call(
                .PATCH, "/v1/users/alice", as: .user("alice", app: a),
                json: .object(["avatar_url": .string("data:image/svg+xml,<svg onload=alert(1)>")]))
            #expect(patched.errorCode == "url_scheme_not_allowed")
            let fine = await h.call(
                .PATCH, "/v1/users/alice", as: .user("alice", app: a),
                json: .object(["avatar_url": .string("https://example.com/a.png")]))
            #expect(fine.status == 200 && fine["avatar_url"]?.stringValue == "https://example.com/a.png")
            #expect(await h.call(.PATCH, "/v1/users/alice", as: .user("alice", app: a), json: .object(["avatar_url": .null])).status == 200)
        }
    }

    @Test func usersListOnlyThePeopleTheyShareARoomWith() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", "bob", "carol", "dave")
            _ = await h.createRoom("alice", members: ["bob"])
            _ = await h.createRoom("bob", members: ["dave"])
            func listed(_ credentials: Credentials) async -> [String] {
                let reply = await h.call(.GET, "/v1/users", as: credentials)
                return reply["users"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            }
            #expect(await listed(.user("alice", app: a)) == ["alice", "bob"])
            #expect(await listed(.user("bob", app: a)) == ["alice", "bob", "dave"])
            #expect(await listed(.user("carol", app: a)) == ["carol"])
            #expect(await listed(.app(a)) == ["alice", "bob", "carol", "dave"])
            // Paging keeps the scope.
            let page = await h.call(.GET, "/v1/users?limit=1&after=alice", as: .user("alice", app: a))
            #expect(page["users"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["bob"])
        }
    }

    @Test(arguments: ChatEngine.available)
    func theLastAdminCannotLeaveWhileOthersRemain(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            let leave = await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("alice", app: a))
            #expect(leave.status == 409 && leave.errorCode == "last_admin", "\(leave.json)")
            let removeSelf = await h.call(.DELETE, "/v1/rooms/\(room)/members/alice", as: .user("alice", app: a))
            #expect(removeSelf.errorCode == "last_admin")
            let byApp = await h.call(.DELETE, "/v1/rooms/\(room)/members/alice", as: .app(a))
            #expect(byApp.errorCode == "last_admin")
            let demote = await h.call(
                .PATCH, "/v1/rooms/\(room)/members/alice", as: .user("alice", app: a),
                json: .object(["role": .string("member")]))
            #expect(demote.errorCode == "last_admin")
            #expect(await h.call(.GET, "/v1/rooms/\(room)/members", as: .user("bob", app: a))["members"]?.arrayValue?.count == 2)
            // A member may always leave; an admin may once another admin exists.
            let promote = await h.call(
                .PATCH, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a),
                json: .object(["role": .string("admin")]))
            #expect(promote.status == 200)
            #expect(await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("alice", app: a)).status == 204)
            // The last member, admin or not, may leave: nobody is left to manage.
            #expect(await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("bob", app: a)).status == 204)
        }
    }

    @Test func clientIDsHaveAtMost512Characters() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let long = await h.send("alice", room: room, "x", clientID: String(repeating: "é", count: 513))
            #expect(long.status == 400 && long.errorCode == "invalid_request", "\(long.json)")
            #expect(await h.send("alice", room: room, "x", clientID: "").errorCode == "invalid_request")
            #expect(await h.send("alice", room: room, "x", clientID: String(repeating: "é", count: 512)).status == 201)
        }
    }

    @Test func partsHoldOnlyTheirDocumentedKeys() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            let cases: [(JSONObject, String)] = [
                (["type": .string("text"), "text": .string("hi"), "html": .string("<b>hi</b>")], "html"),
                (["type": .string("url"), "url": .string("https://x"), "title": .string("t")], "title"),
                (["type": .string("attachment"), "attachment_id": .string("a"), "url": .string("https://x")], "url")
            ]
            for (fields, key) in cases {
                let reply = await h.call(.POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a), json: part(fields))
                #expect(reply.status == 400 && reply.errorCode == "invalid_request", "\(reply.json)")
                #expect(reply.json["error"]?["message"]?.stringValue?.contains(key) == true, "\(reply.json)")
            }
        }
    }

    @Test func typingNamesTheTokensUserAndIsRateLimited() async throws {
        try await ChatHarness.with(limits: ChatLimits()) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            // A body naming someone else changes nothing: the event names the caller.
            let first = await h.call(
                .POST, "/v1/rooms/\(room)/typing", as: .user("bob", app: a),
                json: .object(["user_id": .string("alice")]))
            #expect(first.status == 204)
            let typing = h.publisher.events(on: "private-room-\(room)").filter { $0.name == "typing" }
            #expect(typing.map(\.data) == [.object(["room_id": .string(room), "user_id": .string("bob")])])
            // The first call took one of the burst's tokens; the rest go, then the next is refused.
            let burst = Int(UserWrite.typing.defaultLimit.burst)
            var statuses: [Int] = []
            for _ in 0..<burst { statuses.append(await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("bob", app: a)).status) }
            #expect(statuses.dropLast().allSatisfy { $0 == 204 } && statuses.last == 429, "\(statuses)")
        }
    }
}
