import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Per-user write rates, the reaction cap and the attachment quota")
struct WriteLimitTests {
    /// App A with every write kind at one per second, bursts of two.
    static func tightApp(_ change: (inout AppLimits) -> Void = { _ in }) -> AppConfig {
        var app = ChatHarness.appA
        for write in UserWrite.allCases { app.limits.rates[write] = RateLimit(perSecond: 1, burst: 2) }
        change(&app.limits)
        return app
    }

    static var limited: ChatLimits { ChatLimits() }

    @Test func everyWriteEndpointAnswers429WithRetryAfter() async throws {
        let a = Self.tightApp()
        try await ChatHarness.with(limits: Self.limited, apps: [a, ChatHarness.appB]) { h in
            await h.createUsers("alice", "bob", "carol", app: a)
            let room = await h.createRoom("alice", members: ["bob"], app: a)
            let message = try #require(await h.send("alice", room: room, "hello", app: a)["id"]?.intValue)
            let messagePath = "/v1/rooms/\(room)/messages/\(message)"
            h.clock.advance(seconds: 60)  // the fixtures' own writes are forgotten
            let text: JSONValue = .object(["parts": .array([.object(["type": .string("text"), "text": .string("edited")])])])
            // Each write kind, called three times as alice: two pass, the third is refused.
            let writes: [(String, (Int) async -> Reply)] = [
                ("reactions", { i in await h.call(.PUT, "\(messagePath)/reactions/e\(i)", as: .user("alice", app: a)) }),
                ("edits", { _ in await h.call(.PATCH, messagePath, as: .user("alice", app: a), json: text) }),
                ("typing", { _ in await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("alice", app: a)) }),
                (
                    "cursors",
                    { _ in await h.call(.PUT, "/v1/rooms/\(room)/cursor", as: .user("alice", app: a), json: .object(["seq": .int(1)])) }
                ),
                (
                    "rooms",
                    { _ in await h.call(.POST, "/v1/rooms", as: .user("alice", app: a), json: .object(["kind": .string("private")])) }
                ),
                (
                    "memberships",
                    { i in
                        await h.call(
                            i % 2 == 0 ? .POST : .DELETE, i % 2 == 0 ? "/v1/rooms/\(room)/members" : "/v1/rooms/\(room)/members/carol",
                            as: .user("alice", app: a), json: i % 2 == 0 ? .object(["user_id": .string("carol")]) : nil)
                    }
                ),
                (
                    "uploads",
                    { _ in
                        await h.call(
                            .POST, "/v1/rooms/\(room)/attachments", as: .user("alice", app: a), body: [1, 2, 3],
                            headers: [("Content-Type", "application/octet-stream")])
                    }
                )
            ]
            for (kind, write) in writes {
                for i in 0..<2 {
                    let reply = await write(i)
                    #expect((200..<300).contains(reply.status), "\(kind) #\(i): \(reply.status) \(reply.json)")
                }
                let refused = await write(2)
                #expect(refused.status == 429 && refused.errorCode == "rate_limited", "\(kind): \(refused.status) \(refused.json)")
                #expect(refused.headers.first("Retry-After") == "1", "\(kind)")
            }
            // Another user's bucket is their own.
            #expect(await h.call(.PUT, "\(messagePath)/reactions/e0", as: .user("bob", app: a)).status == 200)
            // Deleting is limited too (after the rest, so the message stays for them).
            h.clock.advance(seconds: 60)
            for _ in 0..<2 { #expect(await h.call(.DELETE, messagePath, as: .user("alice", app: a)).status == 200) }
            #expect(await h.call(.DELETE, messagePath, as: .user("alice", app: a)).errorCode == "rate_limited")
            // The buckets refill with time.
            #expect(await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("alice", app: a)).status == 204)
        }
    }

    @Test func retryAfterFollowsTheConfiguredRate() async throws {
        let a = Self.tightApp { $0.rates[.typing] = RateLimit(perSecond: 0.2, burst: 1) }
        try await ChatHarness.with(limits: Self.limited, apps: [a, ChatHarness.appB]) { h in
            await h.createUsers("alice", app: a)
            let room = await h.createRoom("alice", app: a)
            #expect(await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("alice", app: a)).status == 204)
            let refused = await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("alice", app: a))
            #expect(refused.headers.first("Retry-After") == "5")
            h.clock.advance(seconds: 5)
            #expect(await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("alice", app: a)).status == 204)
        }
    }

    @Test func appLevelCallsAreNotLimitedButTheirSendersAre() async throws {
        let a = Self.tightApp()
        try await ChatHarness.with(limits: Self.limited, apps: [a, ChatHarness.appB]) { h in
            await h.createUsers("alice", app: a)
            for _ in 0..<5 {
                #expect(
                    await h.call(
                        .POST, "/v1/rooms", as: .app(a),
                        json: .object(["kind": .string("private"), "member_ids": .array([.string("alice")])])
                    ).status == 201)
            }
            let room = await h.createRoom("alice", app: a)
            let body: JSONValue = .object([
                "sender_id": .string("alice"),
                "parts": .array([.object(["type": .string("text"), "text": .string("x")])])
            ])
            let statuses = await (0..<3).asyncMap { _ in await h.call(.POST, "/v1/rooms/\(room)/messages", as: .app(a), json: body).status }
            #expect(statuses == [201, 201, 429])
        }
    }

    @Test func aMessageCarriesAtMostTheConfiguredDifferentReactions() async throws {
        var a = ChatHarness.appA
        a.limits.maxReactionsPerMessage = 3
        try await ChatHarness.with(apps: [a, ChatHarness.appB]) { h in
            await h.createUsers("alice", "bob", app: a)
            let room = await h.createRoom("alice", members: ["bob"], app: a)
            let message = try #require(await h.send("alice", room: room, "hello", app: a)["id"]?.intValue)
            let path = "/v1/rooms/\(room)/messages/\(message)/reactions/"
            for emoji in ["a", "b", "c"] { #expect(await h.call(.PUT, path + emoji, as: .user("alice", app: a)).status == 200) }
            let refused = await h.call(.PUT, path + "d", as: .user("alice", app: a))
            #expect(refused.status == 422 && refused.errorCode == "too_many_reactions", "\(refused.json)")
            // An emoji already there may still be added by others; removing one makes room.
            #expect(await h.call(.PUT, path + "a", as: .user("bob", app: a)).json["reactions"]?.arrayValue?.count == 3)
            #expect(await h.call(.DELETE, path + "c", as: .user("alice", app: a)).status == 200)
            #expect(await h.call(.PUT, path + "d", as: .user("bob", app: a)).status == 200)
        }
    }

    @Test(arguments: ChatEngine.available)
    func attachmentsStopAtTheAppQuota(engine: ChatEngine) async throws {
        var a = ChatHarness.appA
        a.limits.attachmentQuotaBytes = 100
        try await ChatHarness.with(engine, apps: [a, ChatHarness.appB]) { h in
            await h.createUsers("alice", app: a)
            let room = await h.createRoom("alice", app: a)
            func upload(_ size: Int) async -> Reply {
                await h.call(
                    .POST, "/v1/rooms/\(room)/attachments", as: .user("alice", app: a), body: [UInt8](repeating: 7, count: size),
                    headers: [("Content-Type", "application/octet-stream")])
            }
            #expect(await upload(60).status == 201)
            let refused = await upload(60)
            #expect(refused.status == 507 && refused.errorCode == "storage_quota_exceeded", "\(refused.json)")
            #expect(await upload(40).status == 201)
            #expect(await upload(1).errorCode == "storage_quota_exceeded")
            // Nothing of the refused uploads stayed on disk.
            #expect(fileCount(h.dataDirectory + "/attachments") == 2)
            let stored = try await h.store.attachmentBytes(app: a.id)
            #expect(stored == 100)
        }
    }
}

extension Sequence {
    /// Maps in order, awaiting each element before the next.
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
