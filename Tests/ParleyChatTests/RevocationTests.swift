import ParleyChannels
import ParleyChannelsTesting
import ParleyWire
import Synchronization
import Testing

@testable import ParleyChat

/// Records what a session sends its client.
final class RecordingTransport: PusherTransport, @unchecked Sendable {
    // @unchecked: the tests drive sessions and manual loops from one task.
    var frames: [[UInt8]] = []
    var closedWith: Int?
    var queuedBytes: Int { 0 }

    func sendText(_ frame: [UInt8]) { frames.append(frame) }
    func close(code: Int, reason: String) { closedWith = code }

    var messages: [PusherMessage] { frames.compactMap { try? PusherMessage.parse($0) } }
    func events(_ name: String) -> [PusherMessage] { messages.filter { $0.event == name } }
    /// Application events (not `pusher…`) on a channel, by name.
    func names(on channel: String) -> [String] {
        messages.filter { $0.channel == channel && !$0.event.hasPrefix("pusher") }.map(\.event)
    }
}

/// Hears access endings.
final class EndingRecorder: AccessEndObserver {
    private let seen = Mutex<[AccessEnding]>([])
    func accessEnded(_ ending: AccessEnding) { seen.withLock { $0.append(ending) } }
    var endings: [AccessEnding] { seen.withLock { $0 } }
}

/// Access ends the moment membership ends: a chat service over a real hub with Pusher
/// sessions, whose channel signatures come from `POST /v1/channels/auth`.
@Suite("Access ends with membership")
struct RevocationTests {
    let a = ChatHarness.appA
    let loops = [ManualHubLoop(), ManualHubLoop()]
    let hub: LocalChannelHub

    init() {
        hub = LocalChannelHub(loops: loops, clock: { 0 })
    }

    /// A Pusher connection of app A (user authentication on) on loop `loop % 2`.
    func connect(_ socket: String, loop: Int = 0) -> (session: PusherSession, transport: RecordingTransport) {
        var app = a
        app.userAuthentication = true
        app.clientEvents = true
        let transport = RecordingTransport()
        let session = PusherSession(
            app: app, config: ChannelsConfig(apps: [app]), loopIndex: loop % 2, hub: hub, transport: transport,
            webhooks: nil, metrics: hub.metrics, now: 0, socketID: PusherSocketID(socket)!)
        session.start()
        return (session, transport)
    }

    func run() { for loop in loops { loop.runPending() } }

    /// `POST /v1/channels/auth` as `user` for the socket.
    func authorise(_ h: ChatHarness, _ user: String, _ socket: PusherSession, _ channel: String) async -> Reply {
        await h.call(
            .POST, "/v1/channels/auth", as: .user(user, app: a),
            json: .object(["socket_id": .string(socket.socketID), "channel_name": .string(channel)]))
    }

    func subscribe(_ session: PusherSession, _ channel: String, auth: String) {
        session.receiveText(
            PusherMessage(
                event: "pusher:subscribe",
                data: .object(["channel": .string(channel), "auth": .string(auth)])
            ).serialized(), now: 0)
    }

    /// Authorises and subscribes; expects both to succeed.
    @discardableResult
    func join(
        _ h: ChatHarness, _ user: String, _ client: (session: PusherSession, transport: RecordingTransport), _ channel: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = await authorise(h, user, client.session, channel)
        let auth = try #require(reply["auth"]?.stringValue, "\(reply.json)", sourceLocation: sourceLocation)
        subscribe(client.session, channel, auth: auth)
        run()
        #expect(
            client.transport.events("pusher_internal:subscription_succeeded").contains { $0.channel == channel },
            sourceLocation: sourceLocation)
        return auth
    }

    func notice(_ t: RecordingTransport, on channel: String) throws -> JSONValue? {
        guard let data = t.events(SubscriptionRevocation.eventName).first(where: { $0.channel == channel })?.data?.stringValue else {
            return nil
        }
        return try JSONParser.parse(data)
    }

    @Test func aRemovedMemberLosesTheRoomChannelAtOnceAndTheirSignatureWithIt() async throws {
        try await ChatHarness.with(hub: hub) { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            let channel = ChatEvent.roomChannel(room)
            let bob = connect("1.1"), carol = connect("2.2", loop: 1)
            let bobAuth = try await join(h, "bob", bob, channel)
            try await join(h, "carol", carol, channel)
            // A signature for a socket that is not connected is given, but no grant is kept for it.
            let stray = await h.call(
                .POST, "/v1/channels/auth", as: .user("carol", app: a),
                json: .object(["socket_id": .string("9.9"), "channel_name": .string(channel)]))
            #expect(stray.status == 200 && h.service.grants.socketCount == 2)
            await h.send("alice", room: room, "before")
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a)).status == 204)
            await h.send("alice", room: room, "after")
            run()
            #expect(bob.transport.names(on: channel) == ["message.created", "member.left", SubscriptionRevocation.eventName])
            #expect(carol.transport.names(on: channel) == ["message.created", "member.left", "message.created"])
            #expect(try notice(bob.transport, on: channel)?["reason"]?.stringValue == "member_removed")
            #expect(hub.snapshot(app: a, channel: channel).subscriptionCount == 1)
            // The signature bob was given before still verifies, but no longer subscribes.
            subscribe(bob.session, channel, auth: bobAuth)
            run()
            let refused = bob.transport.events("pusher:subscription_error").filter { $0.channel == channel }
            #expect(refused.count == 1 && refused.first?.data?["status"] == .int(403))
            #expect(await authorise(h, "bob", bob.session, channel).errorCode == "not_member")
            // Added back, bob is authorised afresh.
            #expect(
                await h.call(
                    .POST, "/v1/rooms/\(room)/members", as: .user("alice", app: a),
                    json: .object(["user_id": .string("bob")])
                ).status == 201)
            try await join(h, "bob", bob, channel)
        }
    }

    @Test func aRoomDocumentsChannelIsRevokedWithTheMembership() async throws {
        // The documents mount answers a room document's channel with the room it depends on.
        let rooms = Mutex<[String: String]>([:])
        let hook: @Sendable (String, String, String) async -> ChannelAuthorization = { _, _, channel in
            guard let room = rooms.withLock({ $0[channel] }) else { return .notChatChannel }
            return .allowedWhileMember(room: room)
        }
        try await ChatHarness.with(otherChannels: hook, hub: hub, alsoGuarded: ["private-doc-"]) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            rooms.withLock { $0["private-doc-d1"] = room }
            let bob = connect("1.1"), alice = connect("2.2", loop: 1)
            try await join(h, "bob", bob, "private-doc-d1")
            try await join(h, "alice", alice, "private-doc-d1")
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a)).status == 204)
            hub.publish(app: a, events: [HubEvent(channel: "private-doc-d1", event: "doc-message", data: .string("AA=="))])
            run()
            #expect(bob.transport.names(on: "private-doc-d1") == [SubscriptionRevocation.eventName])
            #expect(try notice(bob.transport, on: "private-doc-d1")?["reason"]?.stringValue == "member_removed")
            #expect(alice.transport.names(on: "private-doc-d1") == ["doc-message"])
        }
    }

    @Test func leavingEndsTheSubscriptionWithReasonLeft() async throws {
        try await ChatHarness.with(hub: hub) { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", members: ["bob", "carol"])
            let channel = ChatEvent.roomChannel(room)
            let bob = connect("1.1"), carol = connect("2.2", loop: 1)
            try await join(h, "bob", bob, channel)
            try await join(h, "carol", carol, channel)
            #expect(await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("bob", app: a)).status == 204)
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/carol", as: .user("carol", app: a)).status == 204)
            await h.send("alice", room: room, "after")
            run()
            for client in [bob, carol] {
                #expect(try notice(client.transport, on: channel)?["reason"]?.stringValue == "left")
                #expect(!client.transport.names(on: channel).contains("message.created"))
            }
            #expect(!hub.hasSubscribers(app: a, channels: [channel])[0])
        }
    }

    @Test func aDeletedRoomEmptiesItsChannelAndItsIDIsNeverReused() async throws {
        try await ChatHarness.with(hub: hub) { h in
            await h.createUsers("alice", "bob")
            let created = await h.call(
                .POST, "/v1/rooms", as: .user("alice", app: a),
                json: .object(["id": .string("plans"), "member_ids": .array([.string("bob")])]))
            #expect(created.status == 201)
            let channel = ChatEvent.roomChannel("plans")
            let alice = connect("1.1"), bob = connect("2.2", loop: 1)
            try await join(h, "alice", alice, channel)
            let bobAuth = try await join(h, "bob", bob, channel)
            #expect(await h.call(.DELETE, "/v1/rooms/plans", as: .user("alice", app: a)).status == 204)
            run()
            for client in [alice, bob] {
                #expect(client.transport.names(on: channel) == ["room.deleted", SubscriptionRevocation.eventName])
                #expect(try notice(client.transport, on: channel)?["reason"]?.stringValue == "room_deleted")
            }
            let again = await h.call(.POST, "/v1/rooms", as: .user("bob", app: a), json: .object(["id": .string("plans")]))
            #expect(again.status == 409 && again.errorCode == "room_id_retired")
            let byApp = await h.call(.POST, "/v1/rooms", as: .app(a), json: .object(["id": .string("plans")]))
            #expect(byApp.errorCode == "room_id_retired")
            // Nothing of the old room can be reached again under its name.
            subscribe(bob.session, channel, auth: bobAuth)
            run()
            #expect(bob.transport.events("pusher:subscription_error").contains { $0.channel == channel })
            #expect(await authorise(h, "bob", bob.session, channel).status == 403)
        }
    }

    @Test func aDeletedUserIsCutOffAndTheirTokensAreRefusedForGood() async throws {
        try await ChatHarness.with(hub: hub) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            let channel = ChatEvent.roomChannel(room)
            let oldToken = h.token("bob")
            let bob = connect("1.1")
            try await join(h, "bob", bob, channel)
            let signIn = await h.call(
                .POST, "/v1/channels/user-auth", as: .bearer(oldToken),
                json: .object(["socket_id": .string(bob.session.socketID)]))
            bob.session.receiveText(
                PusherMessage(
                    event: "pusher:signin",
                    data: .object([
                        "auth": signIn["auth"] ?? .null, "user_data": signIn["user_data"] ?? .null
                    ])
                ).serialized(), now: 0)
            run()
            #expect(bob.transport.events("pusher:signin_success").count == 1)
            h.clock.advance(seconds: 5)
            #expect(await h.call(.DELETE, "/v1/users/bob", as: .app(a)).status == 204)
            run()
            #expect(try notice(bob.transport, on: channel)?["reason"]?.stringValue == "user_deleted")
            #expect(bob.transport.closedWith == 4009)
            // The token is refused everywhere, and cannot bring the user back.
            for (method, path) in [(HTTPMethod.GET, "/v1/me"), (.GET, "/v1/rooms/\(room)"), (.POST, "/v1/channels/user-auth")] {
                #expect(
                    await h.call(method, path, as: .bearer(oldToken), json: .object(["socket_id": .string("9.9")])).errorCode
                        == "token_revoked", "\(path)")
            }
            let recreate = await h.call(.POST, "/v1/users", as: .bearer(oldToken), json: .object(["name": .string("Bob")]))
            #expect(recreate.status == 401 && recreate.errorCode == "token_revoked")
            #expect(await h.call(.GET, "/v1/users/bob", as: .app(a)).status == 404)
            do {
                _ = try await h.service.authenticateUser(oldToken)
                Issue.record("a deleted user's token must be refused")
            } catch {
                #expect((error as? ChatError)?.code == .tokenRevoked)
            }
            // The app may create the id again; only tokens issued after the deletion work.
            await h.createUsers("bob")
            h.clock.advance(seconds: 1)
            #expect(await h.call(.GET, "/v1/me", as: .user("bob", app: a)).status == 200)
            #expect(await h.call(.GET, "/v1/me", as: .bearer(oldToken)).errorCode == "token_revoked")
            #expect(h.publisher.disconnectedUsers == ["bob"])
        }
    }

    @Test func aDeletedUsersCutoffOutlivesTheServiceThatSetIt() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("bob")
            let oldToken = h.token("bob")
            #expect(await h.call(.GET, "/v1/me", as: .bearer(oldToken)).status == 200)
            #expect(await h.call(.DELETE, "/v1/users/bob", as: .app(a)).status == 204)
            // A second service over the same store (another process, a restart) reads the cutoff.
            let other = ChatService(
                configuration: h.service.configuration, store: h.store, publisher: RecordingPublisher(),
                clock: h.clock.storeClock)
            var headers = HTTPHeaders()
            headers.add("Authorization", "Bearer " + oldToken)
            let response = await other.handle(try ChatRequest(method: .GET, target: "/v1/me", headers: headers, body: []))
            #expect(response.status.code == 401)
            #expect(String(decoding: response.body, as: UTF8.self).contains("token_revoked"))
        }
    }

    @Test func aTokenWithoutIssueTimeIsRefusedOnceItsUserWasDeleted() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("bob", "carol")
            func token(_ user: String) -> String {
                let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
                let claims = Base64URL.encode(Array(#"{"sub":"\#(user)","aud":"1","exp":\#(h.clock.seconds + 3600)}"#.utf8))
                let signature = Digest.hmacSHA256(key: Array(a.secret.utf8), Array("\(header).\(claims)".utf8))
                return "\(header).\(claims).\(Base64URL.encode(signature))"
            }
            #expect(await h.call(.GET, "/v1/me", as: .bearer(token("bob"))).status == 200)
            #expect(await h.call(.DELETE, "/v1/users/bob", as: .app(a)).status == 204)
            await h.createUsers("bob")
            h.clock.advance(seconds: 10)
            #expect(await h.call(.GET, "/v1/me", as: .bearer(token("bob"))).errorCode == "token_revoked")
            #expect(await h.call(.GET, "/v1/me", as: .bearer(token("carol"))).status == 200, "other users are untouched")
        }
    }

    @Test func everyEndingIsReportedToObservers() async throws {
        try await ChatHarness.with { h in
            let observer = EndingRecorder()
            h.service.addAccessEndObserver(observer)
            await h.createUsers("alice", "bob", "carol", "dave")
            let room = await h.createRoom("alice", members: ["bob", "carol", "dave"])
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)/members/bob", as: .user("alice", app: a)).status == 204)
            #expect(await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("carol", app: a)).status == 204)
            #expect(await h.call(.DELETE, "/v1/users/dave", as: .app(a)).status == 204)
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)", as: .user("alice", app: a)).status == 204)
            // Removing someone who is not a member ends nothing.
            let other = await h.createRoom("alice")
            #expect(await h.call(.DELETE, "/v1/rooms/\(other)/members/bob", as: .user("alice", app: a)).status == 204)
            #expect(
                observer.endings == [
                    AccessEnding(app: "1", room: room, user: "bob", reason: .memberRemoved),
                    AccessEnding(app: "1", room: room, user: "carol", reason: .left),
                    AccessEnding(app: "1", room: nil, user: "dave", reason: .userDeleted),
                    AccessEnding(app: "1", room: room, user: nil, reason: .roomDeleted)
                ])
            #expect(h.publisher.revocations.map(\.reason) == ["member_removed", "left", "room_deleted"])
        }
    }
}

/// The grant bookkeeping behind the gate, including the race of a check with a revocation.
@Suite("Channel grants")
struct ChannelGrantsTests {
    let grants = ChannelGrants(guardedPrefixes: ["private-room-", "private-doc-"])

    @Test func onlyConfirmedGrantsAdmit() {
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-room-r") != nil)
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-other") == nil, "not guarded")
        let ticket = grants.begin(app: "1", channel: "private-room-r", socket: "1.1", user: "bob")
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-room-r") != nil, "pending grants do not admit")
        #expect(grants.confirm(ticket, room: "r"))
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-room-r") == nil)
        #expect(grants.refusal(app: "2", socketID: "1.1", channel: "private-room-r") != nil, "apps are separate")
        grants.socketClosed(app: "1", socketID: "1.1")
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-room-r") != nil)
        #expect(grants.socketCount == 0)
    }

    @Test func aRevocationBetweenCheckAndConfirmationWins() {
        // The membership was read (still a member), then removed and revoked, then confirmed.
        let ticket = grants.begin(app: "1", channel: "private-room-r", socket: "1.1", user: "bob")
        #expect(grants.revoke(app: "1", room: "r", user: "bob").isEmpty)
        #expect(!grants.confirm(ticket, room: "r"))
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-room-r") != nil)
        // A room deletion takes every pending grant of the app too.
        let doc = grants.begin(app: "1", channel: "private-doc-d", socket: "2.2", user: "carol")
        _ = grants.revoke(app: "1", room: "r", user: nil)
        #expect(!grants.confirm(doc, room: "r"))
    }

    @Test func revocationTakesTheUsersGrantsInTheRoomOnly() {
        func grant(_ channel: String, _ socket: String, _ user: String, room: String?) {
            #expect(grants.confirm(grants.begin(app: "1", channel: channel, socket: socket, user: user), room: room))
        }
        grant("private-room-r", "1.1", "bob", room: "r")
        grant("private-doc-d", "1.1", "bob", room: "r")
        grant("private-doc-e", "1.1", "bob", room: nil)
        grant("private-room-q", "1.1", "bob", room: "q")
        grant("private-room-r", "2.2", "carol", room: "r")
        #expect(grants.revoke(app: "1", room: "r", user: "bob") == ["private-room-r": ["1.1"], "private-doc-d": ["1.1"]])
        #expect(grants.refusal(app: "1", socketID: "1.1", channel: "private-room-q") == nil)
        #expect(grants.refusal(app: "1", socketID: "2.2", channel: "private-room-r") == nil)
        #expect(grants.revoke(app: "1", room: nil, user: "bob") == ["private-doc-e": ["1.1"], "private-room-q": ["1.1"]])
        #expect(grants.revoke(app: "1", room: "r", user: nil) == ["private-room-r": ["2.2"]])
        #expect(grants.socketCount == 0)
    }
}
