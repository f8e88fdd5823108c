import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Events, channel authorisation, typing and presence")
struct RealtimeTests {
    let a = ChatHarness.appA

    @Test(arguments: ChatEngine.available)
    func writesPublishInOrderWithSeq(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let room = await h.createRoom("alice", members: ["bob"])
            #expect(h.publisher.names(on: "#server-to-user-bob") == ["room.added"])
            #expect(h.publisher.names(on: "#server-to-user-alice") == ["room.added"])
            for index in 1...5 { await h.send(index.isMultiple(of: 2) ? "bob" : "alice", room: room, "m\(index)") }
            let created = h.publisher.events(on: "private-room-\(room)").filter { $0.name == "message.created" }
            #expect(created.map { $0.data["seq"]?.intValue } == [1, 2, 3, 4, 5])
            #expect(created.map { $0.data["message"]?["seq"]?.intValue } == [1, 2, 3, 4, 5])
            // Every member's room list hears about each message, right after the room channel.
            #expect(h.publisher.names(on: "#server-to-user-bob").filter { $0 == "room.activity" }.count == 5)
            let firstBatch = h.publisher.events.drop { $0.name != "message.created" }.prefix(3).map(\.name)
            #expect(firstBatch == ["message.created", "room.activity", "room.activity"])
            #expect(Set(h.publisher.apps()) == ["1"])

            // What was published is durable: history holds exactly the published seqs.
            let history = await h.call(.GET, "/v1/rooms/\(room)/messages", as: .user("bob", app: a))
            #expect(history["messages"]?.arrayValue?.compactMap { $0["seq"]?.intValue } == [1, 2, 3, 4, 5])

            h.publisher.clear()
            let cursor = await h.call(.PUT, "/v1/rooms/\(room)/cursor", as: .user("bob", app: a), json: .object(["seq": .int(5)]))
            #expect(cursor.status == 200)
            #expect(h.publisher.events(on: "private-room-\(room)").map(\.name) == ["cursor.updated"])
            let read = try #require(h.publisher.events(on: "#server-to-user-bob").first)
            #expect(read.name == "room.read" && read.data["unread_count"]?.intValue == 0 && read.data["read_seq"]?.intValue == 5)
            // A cursor that does not move publishes nothing.
            _ = await h.call(.PUT, "/v1/rooms/\(room)/cursor", as: .user("bob", app: a), json: .object(["seq": .int(2)]))
            #expect(h.publisher.events.count == 2)
        }
    }

    @Test func membershipAndRoomEvents() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", "bob", "carol")
            let room = await h.createRoom("alice", kind: "public")
            h.publisher.clear()
            _ = await h.call(.POST, "/v1/rooms/\(room)/join", as: .user("bob", app: a))
            _ = await h.call(.POST, "/v1/rooms/\(room)/members", as: .user("alice", app: a), json: .object(["user_id": .string("carol")]))
            _ = await h.call(
                .PATCH, "/v1/rooms/\(room)/members/carol", as: .user("alice", app: a), json: .object(["role": .string("admin")]))
            _ = await h.call(.POST, "/v1/rooms/\(room)/leave", as: .user("bob", app: a))
            _ = await h.call(.PATCH, "/v1/rooms/\(room)", as: .user("carol", app: a), json: .object(["name": .string("New")]))
            _ = await h.call(.DELETE, "/v1/rooms/\(room)", as: .user("carol", app: a))
            #expect(
                h.publisher.names(on: "private-room-\(room)") == [
                    "member.joined", "member.joined", "member.updated", "member.left", "room.updated", "room.deleted"
                ])
            #expect(h.publisher.names(on: "#server-to-user-bob") == ["room.added", "room.removed"])
            #expect(h.publisher.names(on: "#server-to-user-carol") == ["room.added", "room.removed"])
            #expect(h.publisher.names(on: "#server-to-user-alice") == ["room.removed"])
        }
    }

    @Test(arguments: ChatEngine.available)
    func channelAuthorisationChecksMembership(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "eve")
            let room = await h.createRoom("alice")
            let channel = "private-room-\(room)"
            #expect(await h.service.authorizeChannel(app: "1", user: "alice", channel: channel) == .allowed)
            guard case .denied(let error) = await h.service.authorizeChannel(app: "1", user: "eve", channel: channel) else {
                Issue.record("an outsider was allowed")
                return
            }
            #expect(error.code == .notMember)
            // The same room id in app B is another (missing) room.
            #expect(await h.service.authorizeChannel(app: "2", user: "alice", channel: channel) != .allowed)
            #expect(await h.service.authorizeChannel(app: "1", user: "alice", channel: "#server-to-user-alice") == .allowed)
            #expect(await h.service.authorizeChannel(app: "1", user: "eve", channel: "#server-to-user-alice") != .allowed)
            #expect(await h.service.authorizeChannel(app: "1", user: "eve", channel: "presence-lobby") == .notChatChannel)

            let form = Array("socket_id=123.456&channel_name=\(channel)".utf8)
            let signed = await h.call(
                .POST, "/v1/channels/auth", as: .user("alice", app: a), body: form,
                headers: [("Content-Type", "application/x-www-form-urlencoded")])
            let auth = try #require(signed["auth"]?.stringValue)
            #expect(
                PusherSignature.verifyChannelAuth(
                    auth, key: a.key, secret: a.secret, socketID: "123.456", channel: channel, channelData: nil))
            let refused = await h.call(
                .POST, "/v1/channels/auth", as: .user("eve", app: a), body: form,
                headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(refused.status == 403 && refused.errorCode == "not_member")
            let other = await h.call(
                .POST, "/v1/channels/auth", as: .user("alice", app: a),
                json: .object(["socket_id": .string("1.2"), "channel_name": .string("private-other")]))
            #expect(other.errorCode == "channel_forbidden")
            let badSocket = await h.call(
                .POST, "/v1/channels/auth", as: .user("alice", app: a),
                json: .object(["socket_id": .string("x"), "channel_name": .string(channel)]))
            #expect(badSocket.errorCode == "invalid_request")

            let signIn = await h.call(
                .POST, "/v1/channels/user-auth", as: .user("alice", app: a), json: .object(["socket_id": .string("1.2")]))
            let userData = try #require(signIn["user_data"]?.stringValue)
            #expect(try JSONParser.parse(userData)["id"]?.stringValue == "alice")
            #expect(
                PusherSignature.verifyUserAuth(
                    signIn["auth"]?.stringValue ?? "", key: a.key, secret: a.secret, socketID: "1.2", userData: userData))
        }
    }

    @Test func typingIsAnnouncedToTheRoomOnly() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", "eve")
            let room = await h.createRoom("alice")
            h.publisher.clear()
            #expect(await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("alice", app: a)).status == 204)
            #expect(await h.call(.POST, "/v1/rooms/\(room)/typing", as: .user("eve", app: a)).errorCode == "not_member")
            let events = h.publisher.events
            #expect(events.count == 1 && events.first?.name == "typing" && events.first?.data["user_id"]?.stringValue == "alice")
        }
    }

    @Test(arguments: ChatEngine.available)
    func presenceFollowsTheFirstAndLastConnection(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob")
            let first = await h.createRoom("alice", members: ["bob"])
            let second = await h.createRoom("bob", members: ["alice"])
            h.publisher.clear()
            await h.service.userOnline(app: "1", user: "alice")
            await h.service.userOnline(app: "1", user: "alice")
            let online = h.publisher.events
            #expect(Set(online.map(\.channel)) == ["private-room-\(first)", "private-room-\(second)"])
            #expect(online.allSatisfy { $0.name == "presence.changed" && $0.data["online"] == .bool(true) })
            let status = await h.call(.GET, "/v1/users/alice/presence", as: .user("bob", app: a))
            #expect(status["online"] == .bool(true) && status["last_seen_at"] != .null)

            h.publisher.clear()
            await h.service.userOffline(app: "1", user: "alice")
            #expect(h.publisher.events.isEmpty)
            await h.service.userOffline(app: "1", user: "alice")
            #expect(h.publisher.events.count == 2 && h.publisher.events.allSatisfy { $0.data["online"] == .bool(false) })
            await h.service.userOffline(app: "1", user: "alice")
            #expect(h.publisher.events.count == 2)
            #expect(h.service.presenceStatus(app: "1", user: "alice").online == false)
            #expect(h.service.presenceStatus(app: "2", user: "alice").lastSeenAt == nil)
            #expect(await h.call(.GET, "/v1/users/ghost/presence", as: .user("bob", app: a)).errorCode == "user_not_found")
        }
    }

    @Test func hubPublisherHandsEventsToTheHub() {
        let recorder = HubRecorder()
        let publisher = HubChatPublisher(hub: recorder, apps: AppRegistry(ChannelsConfig(apps: [ChatHarness.appA])))
        publisher.publish(
            app: "1", events: [ChatEvent(channel: "private-room-r", name: "typing", data: .object(["user_id": .string("a")]))])
        publisher.publish(app: "unknown", events: [ChatEvent(channel: "x", name: "y", data: .null)])
        #expect(recorder.published == ["1:private-room-r:typing"])
    }

    @Test func hubPublisherSkipsChannelsWithoutSubscribers() {
        let recorder = HubRecorder(subscribed: ["private-room-r", "#server-to-user-b"])
        let publisher = HubChatPublisher(hub: recorder, apps: AppRegistry(ChannelsConfig(apps: [ChatHarness.appA])))
        let data: JSONValue = .object(["room_id": .string("r"), "seq": .number("1")])
        publisher.publish(
            app: "1",
            events: [
                ChatEvent(channel: "private-room-r", name: "message.created", data: data),
                ChatEvent(channel: "#server-to-user-a", name: "room.activity", data: data),
                ChatEvent(channel: "#server-to-user-b", name: "room.activity", data: data)
            ])
        #expect(recorder.published == ["1:private-room-r:message.created", "1:#server-to-user-b:room.activity"])
        #expect(
            recorder.publishedEvents.last?.frame
                == PusherFrame.channelEvent(event: "room.activity", channel: "#server-to-user-b", data: data))
        // Nobody listening at all: the hub is not called.
        publisher.publish(app: "1", events: [ChatEvent(channel: "#server-to-user-c", name: "room.activity", data: data)])
        #expect(recorder.published.count == 2)
    }

    @Test func hubPublisherFramesEqualThoseEncodedOneByOne() {
        let recorder = HubRecorder()
        let publisher = HubChatPublisher(hub: recorder, apps: AppRegistry(ChannelsConfig(apps: [ChatHarness.appA])))
        let shared: JSONValue = .object([
            "room_id": .string("r"), "seq": .number("7"),
            "message": .object(["text": .string("quote \" and \u{e9}")])
        ])
        let other: JSONValue = .object(["room_id": .string("r"), "seq": .number("8")])
        let events = [
            ChatEvent(channel: "private-room-r", name: "message.created", data: shared),
            ChatEvent(channel: "#server-to-user-a", name: "room.activity", data: shared),
            ChatEvent(channel: "#server-to-user-b", name: "room.activity", data: shared),
            ChatEvent(channel: "#server-to-user-c", name: "room.activity", data: other),
            ChatEvent(channel: "#server-to-user-d", name: "room.activity", data: shared)
        ]
        publisher.publish(app: "1", events: events)
        let published = recorder.publishedEvents
        #expect(published.count == events.count)
        for (event, hubEvent) in zip(events, published) {
            #expect(hubEvent.frame == PusherFrame.channelEvent(event: event.name, channel: event.channel, data: event.data))
            #expect(hubEvent.channel == event.channel && hubEvent.data == event.data && hubEvent.excluding == nil)
        }
    }
}
