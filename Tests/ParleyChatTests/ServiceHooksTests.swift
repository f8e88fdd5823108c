import ParleyWire
import Testing

@testable import ParleyChat

/// What the server composition relies on: other services' channels, token checks for other
/// transports, and request rules a JSON Schema can't state answering 422.
@Suite("Service hooks and schema-conformance rules")
struct ServiceHooksTests {
    let a = ChatHarness.appA

    @Test func otherChannelsAreDecidedByTheHook() async throws {
        let hook: @Sendable (String, String, String) async -> ChannelAuthorization = { app, user, channel in
            guard channel.hasPrefix("private-doc-") else { return .notChatChannel }
            return channel == "private-doc-open" && user == "alice" && app == "1" ? .allowed : .denied(ChatError(.channelForbidden, "no"))
        }
        func auth(_ h: ChatHarness, _ user: String, _ channel: String) async -> Reply {
            await h.call(
                .POST, "/v1/channels/auth", as: .user(user, app: a),
                json: .object(["socket_id": .string("1.2"), "channel_name": .string(channel)]))
        }
        try await ChatHarness.with(otherChannels: hook) { h in
            await h.createUsers("alice", "eve")
            let signed = await auth(h, "alice", "private-doc-open")
            let signature = try #require(signed["auth"]?.stringValue)
            #expect(
                PusherSignature.verifyChannelAuth(
                    signature, key: a.key, secret: a.secret, socketID: "1.2", channel: "private-doc-open", channelData: nil))
            #expect(await auth(h, "eve", "private-doc-open").errorCode == "channel_forbidden")
            #expect(await auth(h, "alice", "private-other").errorCode == "channel_forbidden")
        }
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            #expect(await auth(h, "alice", "private-doc-open").errorCode == "channel_forbidden")
        }
    }

    @Test func verifyUserTokenMatchesTheRESTCheck() async throws {
        try await ChatHarness.with { h in
            let token = try h.service.verifyUserToken(h.token("alice"))
            #expect(token.userID == "alice" && token.appID == a.id)
            #expect(throws: ChatError.self) { try h.service.verifyUserToken(h.token("alice"), expectedApp: ChatHarness.appB.id) }
            let forged = TokenMinter(appID: a.id, secret: "wrong").mint(userID: "alice", now: h.clock.seconds, lifetime: 60)
            do {
                _ = try h.service.verifyUserToken(forged)
                Issue.record("a forged token must be refused")
            } catch {
                #expect((error as? ChatError)?.code == .tokenSignatureInvalid)
            }
        }
    }

    @Test func integralNumbersCountAsIntegers() {
        #expect(JSONBody.integer("459") == 459)
        #expect(JSONBody.integer("459.0") == 459)
        #expect(JSONBody.integer("4.59e2") == 459)
        #expect(JSONBody.integer("-0.0") == 0)
        #expect(JSONBody.integer("9223372036854775807") == Int64.max)
        #expect(JSONBody.integer("1.5") == nil)
        #expect(JSONBody.integer("1e300") == nil)
    }

    @Test func cursorAcceptsAnIntegralDecimal() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let room = await h.createRoom("alice")
            for text in ["a", "b"] {
                await h.call(
                    .POST, "/v1/rooms/\(room)/messages", as: .user("alice", app: a),
                    json: .object(["parts": .array([.object(["type": .string("text"), "text": .string(text)])])]))
            }
            let cursor = await h.call(
                .PUT, "/v1/rooms/\(room)/cursor", as: .user("alice", app: a), body: Array(#"{"seq":2.0}"#.utf8),
                headers: [("Content-Type", "application/json")])
            #expect(cursor.status == 200 && cursor["seq"] == .int(2))
            let fraction = await h.call(
                .PUT, "/v1/rooms/\(room)/cursor", as: .user("alice", app: a), body: Array(#"{"seq":1.5}"#.utf8),
                headers: [("Content-Type", "application/json")])
            #expect(fraction.errorCode == "invalid_request")
        }
    }

    @Test func callerDependentFieldsAnswer422() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob"])
            let send = await h.call(
                .POST, "/v1/rooms/\(room)/messages", as: .app(a),
                json: .object(["parts": .array([.object(["type": .string("text"), "text": .string("x")])])]))
            #expect(send.status == 422 && send.errorCode == "validation_failed")
            let user = await h.call(.POST, "/v1/users", as: .app(a), json: .object(["name": .string("No Id")]))
            #expect(user.status == 422 && user.errorCode == "validation_failed")
            let direct = await h.call(.POST, "/v1/rooms/direct", as: .app(a), json: .object(["user_id": .string("bob")]))
            #expect(direct.status == 422 && direct.errorCode == "validation_failed")
        }
    }

    @Test func aUserMayNameBothUsersOfTheirOwnDirectRoom() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", "bob", "carol")
            let both = await h.call(
                .POST, "/v1/rooms/direct", as: .user("alice", app: a),
                json: .object(["user_ids": .array([.string("bob"), .string("alice")])]))
            #expect(both.status == 201 && both["direct_user_ids"] == .array([.string("alice"), .string("bob")]))
            let others = await h.call(
                .POST, "/v1/rooms/direct", as: .user("alice", app: a),
                json: .object(["user_ids": .array([.string("bob"), .string("carol")])]))
            #expect(others.status == 403 && others.errorCode == "not_self")
        }
    }
}
