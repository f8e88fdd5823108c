import ParleyWire
import Testing

@testable import ParleyChannels

@Suite struct PusherConnectionTests {
    let app = testApp()
    let socket = PusherSocketID("1234.1234")!

    func connection(now: Int64 = 0, app: AppConfig? = nil) -> PusherConnection {
        PusherConnection(app: app ?? self.app, socketID: socket, activityTimeout: 120, pongTimeout: 30, now: now)
    }

    @Test func startsWithConnectionEstablished() throws {
        let c = connection()
        let m = try #require(sent(c.start()).first)
        #expect(m.event == "pusher:connection_established")
        let inner = try JSONParser.parse(try #require(m.data?.stringValue))
        #expect(inner["socket_id"] == .string("1234.1234") && inner["activity_timeout"] == .int(120))
    }

    @Test func protocolVersions() {
        #expect(PusherConnection.checkProtocol("7") == nil)
        #expect(PusherConnection.checkProtocol("6") == nil)
        #expect(PusherConnection.checkProtocol("5") == nil)
        #expect(PusherConnection.checkProtocol("4") == .unsupportedProtocol)
        #expect(PusherConnection.checkProtocol("x") == .unsupportedProtocol)
        #expect(PusherConnection.checkProtocol(nil) == .noProtocol)
    }

    @Test func answersPingAtAnyTime() {
        var c = connection()
        let out = sent(c.receiveText(bytes(#"{"event":"pusher:ping","data":{}}"#), now: 1))
        #expect(out.map(\.event) == ["pusher:pong"])
    }

    @Test func pingsAfterSilenceAndClosesWhenPongIsLate() {
        var c = connection(now: 0)
        #expect(c.tick(now: 119_999).isEmpty)
        #expect(sent(c.tick(now: 120_000)).map(\.event) == ["pusher:ping"])
        #expect(c.tick(now: 149_999).isEmpty)
        let closing = c.tick(now: 150_000)
        #expect(sent(closing).first?.data?["code"] == .int(4201))
        #expect(closing.contains(.close(code: 4201, reason: "Pong reply not received in time")))
        #expect(c.isClosed)
    }

    @Test func anyMessageProvesLiveness() {
        var c = connection(now: 0)
        _ = c.tick(now: 120_000)
        _ = c.receiveText(bytes(#"{"event":"pusher:pong","data":{}}"#), now: 125_000)
        #expect(c.tick(now: 160_000).isEmpty)
        #expect(c.nextDeadline == 245_000)
    }

    @Test func binaryFramesClose4200() {
        var c = connection()
        let actions = c.receiveBinary(now: 1)
        #expect(sent(actions).first?.data?["code"] == .int(4200))
        #expect(actions.contains { if case .close(4200, _) = $0 { true } else { false } })
    }

    @Test func malformedJSONCloses4200() {
        for bad in ["{nope", "[1,2]", #"{"data":{}}"#, "\u{0}"] {
            var c = connection()
            let actions = c.receiveText(bytes(bad), now: 1)
            #expect(actions.contains { if case .close(4200, _) = $0 { true } else { false } }, "\(bad)")
        }
    }

    @Test func publicSubscribeGoesToHubThenSucceeds() throws {
        var c = connection()
        let actions = c.receiveText(subscribeMessage("collabo", auth: ""), now: 1)
        guard case .subscribe(let request)? = actions.first else { Issue.record("no subscribe"); return }
        #expect(request.channel.name == "collabo" && request.member == nil)
        let result = sent(c.subscriptionResult(channel: "collabo", .succeeded(members: nil, cache: .none)))
        #expect(result.map(\.event) == ["pusher_internal:subscription_succeeded"])
        #expect(result.first?.channel == "collabo" && result.first?.data == .string("{}"))
    }

    @Test func privateSubscribeChecksSignature() {
        var c = connection()
        let good = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, channel: "private-foobar")
        #expect(
            c.receiveText(subscribeMessage("private-foobar", auth: good), now: 1).contains {
                if case .subscribe = $0 { true } else { false }
            })
        let bad = sent(c.receiveText(subscribeMessage("private-other", auth: good), now: 1))
        #expect(bad.map(\.event) == ["pusher:error", "pusher:subscription_error"])
        #expect(bad[0].data?["code"] == .int(4009))
        #expect(bad[1].data?["status"] == .int(401) && bad[1].data?["type"] == .string("AuthError"))
        let missing = sent(c.receiveText(subscribeMessage("private-x"), now: 1))
        #expect(missing.first?.data?["code"] == .int(4009))
    }

    @Test func presenceSubscribeVerifiesExactChannelData() throws {
        var c = connection()
        let data = #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#
        let auth = PusherSignature.channelAuth(
            key: app.key, secret: app.secret, socketID: socket.rawValue, channel: "presence-foobar", channelData: data)
        let actions = c.receiveText(subscribeMessage("presence-foobar", auth: auth, channelData: data), now: 1)
        guard case .subscribe(let request)? = actions.first else { Issue.record("refused: \(actions)"); return }
        #expect(request.member == PresenceMember(userID: "10", userInfo: .object(["name": .string("Mr. Channels")])))
        let ok = sent(c.subscriptionResult(channel: "presence-foobar", .succeeded(members: [request.member!], cache: .none)))
        let presence = try #require(ok.first?.dataObject?["presence"])
        #expect(presence["ids"] == .array([.string("10")]) && presence["count"] == .int(1))
    }

    @Test func presenceLimitsOnUserInfoAndID() {
        var c = connection()
        for data in [
            #"{"user_info":{}}"#, #"{"user_id":""}"#, "{\"user_id\":\"\(String(repeating: "x", count: 129))\"}",
            "{\"user_id\":\"1\",\"user_info\":\"\(String(repeating: "x", count: 1100))\"}", "not json"
        ] {
            let auth = PusherSignature.channelAuth(
                key: app.key, secret: app.secret, socketID: socket.rawValue, channel: "presence-a", channelData: data)
            let out = sent(c.receiveText(subscribeMessage("presence-a", auth: auth, channelData: data), now: 1))
            #expect(out.map(\.event) == ["pusher:error", "pusher:subscription_error"], "\(data)")
        }
    }

    @Test func invalidChannelNamesAreRefusedWithoutClosing() {
        var c = connection()
        for name in ["", "a b", String(repeating: "a", count: 201), "#nope", "ch\u{e9}"] {
            let actions = c.receiveText(subscribeMessage(name), now: 1)
            #expect(sent(actions).map(\.event) == ["pusher:error", "pusher:subscription_error"], "\(name)")
            #expect(!actions.contains { if case .close = $0 { true } else { false } })
        }
        #expect(!c.isClosed)
    }

    @Test func subscriptionsPerConnectionAreCapped() {
        var limited = app
        limited.limits.maxChannelsPerConnection = 3
        var c = connection(app: limited)
        for name in ["a", "b", "c"] {
            #expect(c.receiveText(subscribeMessage(name), now: 1).contains { if case .subscribe = $0 { true } else { false } })
        }
        let refused = c.receiveText(subscribeMessage("d"), now: 1)
        #expect(!refused.contains { if case .subscribe = $0 { true } else { false } })
        let out = sent(refused)
        #expect(out.map(\.event) == ["pusher:error", "pusher:subscription_error"])
        #expect(out[0].data?["code"] == .int(4303))
        #expect(out[1].channel == "d" && out[1].data?["status"] == .int(429) && out[1].data?["type"] == .string("LimitReached"))
        #expect(!c.isClosed && Set(c.channelNames) == ["a", "b", "c"])
        // Subscribing again to a held channel is not a new one; leaving one makes room.
        #expect(c.receiveText(subscribeMessage("a"), now: 1).contains { if case .subscribe = $0 { true } else { false } })
        _ = c.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"b"}}"#), now: 1)
        #expect(c.receiveText(subscribeMessage("d"), now: 1).contains { if case .subscribe = $0 { true } else { false } })
    }

    @Test func subscriptionCapDefaultsToOneHundred() {
        var c = connection()
        #expect(AppLimits().maxChannelsPerConnection == 100)
        for i in 0..<100 { _ = c.receiveText(subscribeMessage("ch-\(i)"), now: 1) }
        #expect(sent(c.receiveText(subscribeMessage("ch-100"), now: 1)).first?.data?["code"] == .int(4303))
        #expect(c.channelNames.count == 100)
    }

    @Test func serverToUserNeedsTheSignedInUser() {
        var c = connection()
        #expect(sent(c.receiveText(subscribeMessage("#server-to-user-12345", auth: ""), now: 1)).first?.data?["code"] == .int(4009))
        let userData = #"{"id":"12345"}"#
        let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, userData: userData)
        let signin = c.receiveText(
            PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(userData)])).serialized(),
            now: 1)
        #expect(sent(signin).map(\.event) == ["pusher:signin_success"])
        #expect(signin.contains(.signIn(PusherSignedInUser(userID: "12345", userData: userData, watchlist: []))))
        #expect(
            c.receiveText(subscribeMessage("#server-to-user-12345", auth: ""), now: 1).contains {
                if case .subscribe = $0 { true } else { false }
            })
        #expect(sent(c.receiveText(subscribeMessage("#server-to-user-999", auth: ""), now: 1)).first?.data?["code"] == .int(4009))
    }

    @Test func signinRules() {
        var c = connection()
        func signin(_ userData: String, auth: String? = nil) -> [PusherConnectionAction] {
            let a = auth ?? PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, userData: userData)
            return c.receiveText(
                PusherMessage(event: "pusher:signin", data: .object(["auth": .string(a), "user_data": .string(userData)])).serialized(),
                now: 1)
        }
        #expect(sent(signin(#"{"id":"1"}"#, auth: "278d425bdf160c739803:00")).first?.data?["code"] == .int(4009))
        #expect(sent(signin(#"{"id":""}"#)).first?.data?["code"] == .int(4009))
        #expect(sent(signin(#"{"name":"x"}"#)).first?.data?["code"] == .int(4009))
        #expect(sent(signin(#"{"id":"1"}"#)).first?.event == "pusher:signin_success")
        #expect(sent(signin(#"{"id":"2"}"#)).first?.data?["code"] == .int(4009))
        var disabledApp = app
        disabledApp.userAuthentication = false
        var d = connection(app: disabledApp)
        let userData = #"{"id":"1"}"#
        let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, userData: userData)
        let out = d.receiveText(
            PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(userData)])).serialized(),
            now: 1)
        #expect(sent(out).first?.data?["code"] == .int(4009))
    }

    @Test func watchlistOver100KeepsFirst100AndWarns4302() {
        var c = connection()
        let ids = (0..<105).map { "\"u\($0)\"" }.joined(separator: ",")
        let userData = "{\"id\":\"1\",\"watchlist\":[\(ids)]}"
        let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, userData: userData)
        let out = c.receiveText(
            PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(userData)])).serialized(),
            now: 1)
        #expect(sent(out).map(\.event) == ["pusher:signin_success", "pusher:error"])
        #expect(sent(out)[1].data?["code"] == .int(4302))
        let user = out.compactMap { if case .signIn(let u) = $0 { u } else { nil } }.first
        #expect(user?.watchlist.count == 100 && user?.watchlist.last == "u99")
    }

    func subscribed(_ channel: String, member: String? = nil) -> PusherConnection {
        var c = connection()
        var data: String?
        if let member { data = "{\"user_id\":\"\(member)\"}" }
        let auth = PusherSignature.channelAuth(
            key: app.key, secret: app.secret, socketID: socket.rawValue, channel: channel, channelData: data)
        _ = c.receiveText(subscribeMessage(channel, auth: auth, channelData: data), now: 0)
        _ = c.subscriptionResult(channel: channel, .succeeded(members: [], cache: .none))
        return c
    }

    @Test func clientEventsOnPrivateChannels() {
        var c = subscribed("private-a")
        let actions = c.receiveText(bytes(#"{"event":"client-typing","channel":"private-a","data":{"who":"me"}}"#), now: 1)
        guard case .clientEvent(let event)? = actions.first else { Issue.record("not accepted: \(actions)"); return }
        #expect(event.channel == "private-a" && event.event == "client-typing" && event.userID == nil)
        #expect(text(event.frame) == #"{"event":"client-typing","channel":"private-a","data":{"who":"me"}}"#)
    }

    @Test func clientEventsOnPresenceCarryUserID() throws {
        var c = subscribed("presence-a", member: "u7")
        let actions = c.receiveText(bytes(#"{"event":"client-x","channel":"presence-a","data":"hi"}"#), now: 1)
        guard case .clientEvent(let event)? = actions.first else { Issue.record("not accepted"); return }
        #expect(event.userID == "u7")
        #expect(try PusherMessage.parse(event.frame).userID == "u7")
    }

    @Test func clientEventRejections() {
        var pub = subscribed("public-a")
        #expect(
            sent(pub.receiveText(bytes(#"{"event":"client-x","channel":"public-a","data":{}}"#), now: 1)).first?.data?["code"] == .int(4301)
        )
        var notSubscribed = subscribed("private-a")
        #expect(
            sent(notSubscribed.receiveText(bytes(#"{"event":"client-x","channel":"private-b","data":{}}"#), now: 1)).first?.data?["code"]
                == .int(4301))
        var disabled = app
        disabled.clientEvents = false
        var off = connection(app: disabled)
        #expect(
            sent(off.receiveText(bytes(#"{"event":"client-x","channel":"private-a","data":{}}"#), now: 1)).first?.data?["code"]
                == .int(4301))
        var big = subscribed("private-a")
        let huge = "{\"event\":\"client-x\",\"channel\":\"private-a\",\"data\":\"\(String(repeating: "x", count: 11_000))\"}"
        #expect(sent(big.receiveText(bytes(huge), now: 1)).first?.data?["code"] == .int(4301))
    }

    @Test func clientEventFloodIsRateLimitedPerSecond() {
        var c = subscribed("private-a")
        var accepted = 0, errors = 0
        for i in 0..<50 {
            for action in c.receiveText(bytes(#"{"event":"client-x","channel":"private-a","data":{}}"#), now: 10_000 + Int64(i)) {
                switch action {
                case .clientEvent: accepted += 1
                case .send: errors += 1
                default: break
                }
            }
        }
        #expect(accepted == 10)
        #expect(errors == 1)  // one 4301 per window, not one per dropped event
        #expect(!c.isClosed)
        let next = c.receiveText(bytes(#"{"event":"client-x","channel":"private-a","data":{}}"#), now: 11_000)
        #expect(next.contains { if case .clientEvent = $0 { true } else { false } })
    }

    @Test func unsubscribeAndCloseLeaveChannels() {
        var c = subscribed("private-a")
        #expect(
            c.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"private-a"}}"#), now: 1) == [
                .unsubscribe(channel: "private-a")
            ])
        #expect(c.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"private-a"}}"#), now: 1).isEmpty)
        var d = subscribed("private-a")
        #expect(d.transportClosed() == [.unsubscribe(channel: "private-a")])
        #expect(d.receiveText(bytes(#"{"event":"pusher:ping"}"#), now: 2).isEmpty)
    }

    @Test func lateHubAnswerAfterUnsubscribeIsUndone() {
        var c = connection()
        _ = c.receiveText(subscribeMessage("collabo"), now: 0)
        _ = c.receiveText(bytes(#"{"event":"pusher:unsubscribe","data":{"channel":"collabo"}}"#), now: 0)
        #expect(c.subscriptionResult(channel: "collabo", .succeeded(members: nil, cache: .none)) == [.unsubscribe(channel: "collabo")])
    }

    @Test func cacheReplayAndMiss() {
        var c = connection()
        _ = c.receiveText(subscribeMessage("cache-a"), now: 0)
        #expect(
            sent(c.subscriptionResult(channel: "cache-a", .succeeded(members: nil, cache: .miss))).map(\.event)
                == ["pusher_internal:subscription_succeeded", "pusher:cache_miss"])
        _ = c.receiveText(subscribeMessage("cache-b"), now: 0)
        let frame = PusherFrame.channelEvent(event: "e", channel: "cache-b", data: .string("x"))
        #expect(
            sent(c.subscriptionResult(channel: "cache-b", .succeeded(members: nil, cache: .hit(frame)))).map(\.event)
                == ["pusher_internal:subscription_succeeded", "e"])
    }
}
