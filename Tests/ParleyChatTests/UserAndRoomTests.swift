import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Users and rooms endpoints")
struct UserAndRoomTests {
    let a = ChatHarness.appA

    @Test(arguments: ChatEngine.available)
    func usersCRUD(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            let created = await h.call(
                .POST, "/v1/users", as: .app(a),
                json: .object([
                    "id": .string("alice"), "name": .string("Alice"), "avatar_url": .string("https://x/a.png"),
                    "custom_data": .object(["team": .string("red")])
                ]))
            #expect(created.status == 201)
            #expect(created["custom_data"]?["team"]?.stringValue == "red")
            #expect(
                await h.call(.POST, "/v1/users", as: .app(a), json: .object(["id": .string("alice"), "name": .string("A")])).errorCode
                    == "already_exists")
            // A user may create themself (id defaults to the token's sub), but nobody else.
            #expect(await h.call(.POST, "/v1/users", as: .user("bob", app: a), json: .object(["name": .string("Bob")])).status == 201)
            #expect(
                await h.call(.POST, "/v1/users", as: .user("bob", app: a), json: .object(["id": .string("carol"), "name": .string("C")]))
                    .errorCode == "not_self")

            #expect(await h.call(.GET, "/v1/users/alice", as: .user("bob", app: a))["name"]?.stringValue == "Alice")
            #expect(await h.call(.GET, "/v1/users/nobody", as: .user("bob", app: a)).errorCode == "user_not_found")
            let page = await h.call(.GET, "/v1/users?limit=1", as: .app(a))
            #expect(page["users"]?.arrayValue?.count == 1)
            #expect(page["next_after"]?.stringValue == "alice")
            let rest = await h.call(.GET, "/v1/users?after=alice&limit=5", as: .app(a))
            #expect(rest["users"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["bob"])
            #expect(rest["next_after"] == .null)

            let renamed = await h.call(
                .PATCH, "/v1/users/alice", as: .user("alice", app: a),
                json: .object(["name": .string("Alicia"), "avatar_url": .null]))
            #expect(renamed["name"]?.stringValue == "Alicia" && renamed["avatar_url"] == .null)
            #expect(renamed["custom_data"]?["team"]?.stringValue == "red")
            #expect(
                await h.call(.PATCH, "/v1/users/alice", as: .user("bob", app: a), json: .object(["name": .string("x")])).errorCode
                    == "not_self")
            #expect(await h.call(.PATCH, "/v1/users/alice", as: .app(a), json: .object(["name": .null])).errorCode == "invalid_request")
            let big = String(repeating: "x", count: 6000)
            let tooBig = await h.call(.PATCH, "/v1/users/alice", as: .app(a), json: .object(["custom_data": .object(["k": .string(big)])]))
            #expect(tooBig.status == 422 && tooBig.errorCode == "validation_failed")
            #expect(
                await h.call(.PATCH, "/v1/users/alice", as: .app(a), json: .object(["custom_data": .string("no")])).errorCode
                    == "invalid_request")

            #expect(await h.call(.DELETE, "/v1/users/alice", as: .user("alice", app: a)).errorCode == "app_credentials_required")
            #expect(await h.call(.DELETE, "/v1/users/alice", as: .app(a)).status == 204)
            #expect(await h.call(.GET, "/v1/users/alice", as: .app(a)).status == 404)
            // A token minted in the second of the deletion is refused; one minted later finds no user.
            #expect(await h.call(.GET, "/v1/me", as: .user("alice", app: a)).errorCode == "token_revoked")
            h.clock.advance(seconds: 1)
            #expect(await h.call(.GET, "/v1/me", as: .user("alice", app: a)).errorCode == "user_not_found")
        }
    }

    @Test func malformedBodiesAndRoutes() async throws {
        try await ChatHarness.with { h in
            #expect(await h.call(.POST, "/v1/users", as: .app(a), body: Array("{nope".utf8)).errorCode == "invalid_json")
            #expect(await h.call(.POST, "/v1/users", as: .app(a), body: Array("[1]".utf8)).errorCode == "invalid_request")
            #expect(
                await h.call(.POST, "/v1/users", as: .app(a), json: .object(["id": .int(5), "name": .string("x")])).errorCode
                    == "invalid_request")
            let wrongType = await h.call(
                .POST, "/v1/users", as: .app(a), body: Array("id=a".utf8), headers: [("Content-Type", "text/plain")])
            #expect(wrongType.status == 415)
            let huge = await h.call(.POST, "/v1/users", as: .app(a), body: Array(repeating: 0x20, count: 70_000))
            #expect(huge.status == 413)
            let badID = await h.call(.POST, "/v1/users", as: .app(a), json: .object(["id": .string("a b"), "name": .string("x")]))
            #expect(badID.status == 422)
            #expect(await h.call(.GET, "/v1/nothing", as: .app(a)).errorCode == "not_found")
            let wrongMethod = await h.call(.PUT, "/v1/users", as: .app(a))
            #expect(wrongMethod.status == 405 && wrongMethod.errorCode == "method_not_allowed")
            #expect(wrongMethod.headers.first("Allow")?.contains("POST") == true)
            #expect(await h.call(.GET, "/v1/users?limit=0", as: .app(a)).errorCode == "invalid_parameter")
            #expect(await h.call(.GET, "/v1/users?limit=101", as: .app(a)).errorCode == "invalid_parameter")
            #expect(await h.call(.GET, "/v1/dev/users").errorCode == "not_found")
        }
    }

    @Test(arguments: ChatEngine.available)
    func roomsAndPermissions(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol")
            let lobby = await h.createRoom("alice", kind: "public")
            let secret = await h.createRoom("alice", kind: "private", members: ["bob"])

            // Public rooms are listed and joinable; private ones are not.
            let listed = await h.call(.GET, "/v1/rooms", as: .user("carol", app: a))
            #expect(listed["rooms"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [lobby])
            #expect(await h.call(.GET, "/v1/rooms/\(lobby)", as: .user("carol", app: a)).status == 200)
            let joined = await h.call(.POST, "/v1/rooms/\(lobby)/join", as: .user("carol", app: a))
            #expect(joined.status == 201 && joined["role"]?.stringValue == "member")
            #expect(await h.call(.POST, "/v1/rooms/\(lobby)/join", as: .user("carol", app: a)).status == 200)
            #expect(await h.call(.POST, "/v1/rooms/\(secret)/join", as: .user("carol", app: a)).errorCode == "room_not_joinable")
            #expect(await h.call(.GET, "/v1/rooms/\(secret)", as: .user("carol", app: a)).errorCode == "not_member")
            #expect(await h.call(.GET, "/v1/rooms/\(secret)/members", as: .user("carol", app: a)).errorCode == "not_member")
            #expect(await h.call(.GET, "/v1/rooms/nope", as: .user("carol", app: a)).errorCode == "room_not_found")

            // Only admins manage the room and its members.
            #expect(
                await h.call(.PATCH, "/v1/rooms/\(secret)", as: .user("bob", app: a), json: .object(["name": .string("x")])).errorCode
                    == "not_room_admin")
            #expect(
                await h.call(.POST, "/v1/rooms/\(secret)/members", as: .user("bob", app: a), json: .object(["user_id": .string("carol")]))
                    .errorCode == "not_room_admin")
            #expect(await h.call(.DELETE, "/v1/rooms/\(secret)", as: .user("bob", app: a)).errorCode == "not_room_admin")
            let renamed = await h.call(
                .PATCH, "/v1/rooms/\(secret)", as: .user("alice", app: a),
                json: .object(["name": .string("Secret"), "custom_data": .object(["topic": .string("t")])]))
            #expect(renamed["name"]?.stringValue == "Secret" && renamed["custom_data"]?["topic"]?.stringValue == "t")
            let added = await h.call(
                .POST, "/v1/rooms/\(secret)/members", as: .user("alice", app: a),
                json: .object(["user_id": .string("carol"), "role": .string("admin")]))
            #expect(added.status == 201 && added["role"]?.stringValue == "admin")
            #expect(
                await h.call(.POST, "/v1/rooms/\(secret)/members", as: .user("alice", app: a), json: .object(["user_id": .string("carol")]))
                    .status == 200)
            #expect(
                await h.call(.POST, "/v1/rooms/\(secret)/members", as: .user("alice", app: a), json: .object(["user_id": .string("ghost")]))
                    .errorCode == "user_not_found")
            let demoted = await h.call(
                .PATCH, "/v1/rooms/\(secret)/members/carol", as: .user("alice", app: a), json: .object(["role": .string("member")]))
            #expect(demoted["role"]?.stringValue == "member")
            #expect(await h.call(.DELETE, "/v1/rooms/\(secret)/members/bob", as: .user("carol", app: a)).errorCode == "not_room_admin")
            #expect(await h.call(.DELETE, "/v1/rooms/\(secret)/members/bob", as: .user("alice", app: a)).status == 204)
            #expect(await h.call(.POST, "/v1/rooms/\(secret)/leave", as: .user("carol", app: a)).status == 204)
            #expect(await h.call(.POST, "/v1/rooms/\(secret)/leave", as: .user("carol", app: a)).errorCode == "not_member")
            let members = await h.call(.GET, "/v1/rooms/\(secret)/members", as: .user("alice", app: a))
            #expect(members["members"]?.arrayValue?.compactMap { $0["user_id"]?.stringValue } == ["alice"])

            // App-level calls may do anything in their app.
            #expect(
                await h.call(.PATCH, "/v1/rooms/\(secret)", as: .app(a), json: .object(["kind": .string("public")]))["kind"]?.stringValue
                    == "public")
            #expect(await h.call(.DELETE, "/v1/rooms/\(secret)", as: .app(a)).status == 204)
            #expect(await h.call(.GET, "/v1/rooms/\(secret)", as: .app(a)).errorCode == "room_not_found")
        }
    }

    @Test(arguments: ChatEngine.available)
    func directRoomsAreOnePerPair(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "carol")
            let first = await h.call(.POST, "/v1/rooms/direct", as: .user("alice", app: a), json: .object(["user_id": .string("bob")]))
            #expect(first.status == 201 && first["kind"]?.stringValue == "direct")
            let again = await h.call(.POST, "/v1/rooms/direct", as: .user("bob", app: a), json: .object(["user_id": .string("alice")]))
            #expect(again.status == 200 && again["id"] == first["id"])
            let byApp = await h.call(
                .POST, "/v1/rooms/direct", as: .app(a), json: .object(["user_ids": .array([.string("bob"), .string("alice")])]))
            #expect(byApp.status == 200 && byApp["id"] == first["id"])
            let id = first["id"]?.stringValue ?? ""
            #expect(
                await h.call(.POST, "/v1/rooms/\(id)/members", as: .app(a), json: .object(["user_id": .string("carol")])).errorCode
                    == "direct_room_fixed")
            #expect(
                await h.call(.POST, "/v1/rooms/direct", as: .user("alice", app: a), json: .object(["user_id": .string("alice")])).status
                    == 422)
            #expect(
                await h.call(.POST, "/v1/rooms/direct", as: .user("alice", app: a), json: .object(["user_id": .string("ghost")])).errorCode
                    == "user_not_found")
            #expect(
                await h.call(.PATCH, "/v1/rooms/\(id)", as: .app(a), json: .object(["kind": .string("public")])).errorCode == "conflict")
            #expect(
                await h.call(.POST, "/v1/rooms", as: .user("alice", app: a), json: .object(["kind": .string("direct")])).errorCode
                    == "invalid_request")
        }
    }
}
