import ParleyChannelsTesting
import ParleyWire
import Testing

@testable import ParleyChannels

/// The HTTP API over a real local hub, with requests signed the way the server libraries sign.
@Suite struct PusherAPITests {
    let loop = ManualHubLoop()
    let clock = TestClock()
    let hub: LocalChannelHub
    let api: PusherAPI
    let app: AppConfig
    let disabled: AppConfig
    let now: Int64 = 1_700_000_000

    init() {
        var disabled = AppConfig(id: "4", key: "disabled-key", secret: "s4")
        disabled.enabled = false
        self.disabled = disabled
        app = testApp()
        hub = LocalChannelHub(loops: [loop], clock: clock.read)
        let now = self.now
        api = PusherAPI(apps: AppRegistry(ChannelsConfig(apps: [testApp(), disabled])), hub: hub, unixTime: { now }, metrics: hub.metrics)
    }

    /// Signs like pusher-http-python: over decoded values, then percent-encodes the commas.
    func request(
        _ method: String, _ path: String, body: String = "", params: [(String, String)] = [], app: AppConfig? = nil,
        timestamp: Int64? = nil, tamper: ((inout [(String, String)]) -> Void)? = nil
    ) -> PusherAPIRequest {
        let app = app ?? self.app
        let bodyBytes = Array(body.utf8)
        var pairs =
            params + [
                ("auth_key", app.key), ("auth_timestamp", String(timestamp ?? now)), ("auth_version", "1.0"),
                ("body_md5", PusherRequestSignature.bodyMD5(bodyBytes))
            ]
        let signature = PusherRequestSignature.sign(secret: app.secret, method: method, path: path, query: PusherQuery(pairs))
        pairs.append(("auth_signature", signature))
        tamper?(&pairs)
        let query = pairs.map { "\($0.0)=\($0.1.split(separator: ",", omittingEmptySubsequences: false).joined(separator: "%2C"))" }.joined(
            separator: "&")
        return PusherAPIRequest(method: method, target: "\(path)?\(query)", body: bodyBytes)
    }

    func subscriber(_ socket: String, _ channels: [String], presenceUser: String? = nil) -> (PusherSession, FakeTransport) {
        let t = FakeTransport()
        let s = PusherSession(
            app: app, config: ChannelsConfig(apps: [app]), loopIndex: 0, hub: hub, transport: t, webhooks: nil,
            metrics: hub.metrics, now: 0, socketID: PusherSocketID(socket)!)
        s.start()
        for channel in channels {
            var data: String?
            if let presenceUser { data = "{\"user_id\":\"\(presenceUser)\"}" }
            let auth = PusherSignature.channelAuth(
                key: app.key, secret: app.secret, socketID: socket, channel: channel,
                channelData: PusherChannel(channel)?.kind == .presence ? data : nil)
            s.receiveText(
                subscribeMessage(channel, auth: auth, channelData: PusherChannel(channel)?.kind == .presence ? data : nil), now: 0)
        }
        loop.runPending()
        return (s, t)
    }

    @Test func knownAnswerRequestIsAccepted() {
        let body = #"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#
        let target =
            "/apps/3/events?auth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0"
            + "&body_md5=ec365a775a4cd0599faeb73354201b6f&auth_signature=da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c"
        let api = PusherAPI(apps: AppRegistry(ChannelsConfig(apps: [testApp()])), hub: hub, unixTime: { 1353088179 }, metrics: hub.metrics)
        #expect(api.handle(PusherAPIRequest(method: "POST", target: target, body: Array(body.utf8))) == .empty)
    }

    @Test func triggerToSeveralChannelsWithSocketExclusion() {
        let a = subscriber("1.1", ["c1", "c2"]), b = subscriber("2.2", ["c1"]), c = subscriber("3.3", ["c2"])
        let body = #"{"name":"text_update","channels":["c1","c2"],"data":"{\"text\":\"hi\",\"deviceId\":\"d\"}","socket_id":"2.2"}"#
        #expect(api.handle(request("POST", "/apps/3/events", body: body)) == .empty)
        loop.runPending()
        #expect(a.1.events("text_update").map(\.channel) == ["c1", "c2"])
        #expect(b.1.events("text_update").isEmpty)
        #expect(c.1.events("text_update").map { $0.data } == [.string(#"{"text":"hi","deviceId":"d"}"#)])
    }

    @Test func triggerWithInfo() {
        _ = subscriber("1.1", ["presence-p"], presenceUser: "u1")
        _ = subscriber("2.2", ["presence-p"], presenceUser: "u1")
        let body = #"{"name":"e","channels":["presence-p"],"data":"x","info":"user_count,subscription_count"}"#
        let response = api.handle(request("POST", "/apps/3/events", body: body))
        #expect(response.status == 200)
        #expect(response.json?["channels"]?["presence-p"] == .object(["user_count": .int(1), "subscription_count": .int(2)]))
        let bad = api.handle(request("POST", "/apps/3/events", body: #"{"name":"e","channels":["public"],"data":"x","info":"user_count"}"#))
        #expect(bad.status == 400)
    }

    @Test func batchEventsInOrder() {
        let a = subscriber("1.1", ["b1", "b2"])
        let body =
            #"{"batch":[{"name":"one","channel":"b1","data":"1"},{"name":"two","channel":"b2","data":"2","info":"subscription_count"}]}"#
        let response = api.handle(request("POST", "/apps/3/batch_events", body: body))
        #expect(response.json == .object(["batch": .array([.object([:]), .object(["subscription_count": .int(1)])])]))
        loop.runPending()
        #expect(a.1.messages.filter { $0.event == "one" || $0.event == "two" }.map(\.event) == ["one", "two"])
        let items = (0..<11).map { _ in #"{"name":"e","channel":"b1","data":"x"}"# }.joined(separator: ",")
        #expect(api.handle(request("POST", "/apps/3/batch_events", body: "{\"batch\":[\(items)]}")).status == 400)
    }

    @Test func channelListingAndInfo() {
        _ = subscriber("1.1", ["presence-a"], presenceUser: "u1")
        _ = subscriber("2.2", ["presence-a"], presenceUser: "u2")
        _ = subscriber("3.3", ["public-b"])
        let all = api.handle(request("GET", "/apps/3/channels"))
        #expect(all.json == .object(["channels": .object(["presence-a": .object([:]), "public-b": .object([:])])]))
        let presence = api.handle(request("GET", "/apps/3/channels", params: [("filter_by_prefix", "presence-"), ("info", "user_count")]))
        #expect(presence.json == .object(["channels": .object(["presence-a": .object(["user_count": .int(2)])])]))
        #expect(api.handle(request("GET", "/apps/3/channels", params: [("info", "user_count")])).status == 400)
        let info = api.handle(request("GET", "/apps/3/channels/presence-a", params: [("info", "user_count,subscription_count")]))
        #expect(info.json == .object(["occupied": .bool(true), "user_count": .int(2), "subscription_count": .int(2)]))
        #expect(api.handle(request("GET", "/apps/3/channels/empty")).json == .object(["occupied": .bool(false)]))
        #expect(api.handle(request("GET", "/apps/3/channels/public-b", params: [("info", "user_count")])).status == 400)
        let users = api.handle(request("GET", "/apps/3/channels/presence-a/users"))
        #expect(users.json == .object(["users": .array([.object(["id": .string("u1")]), .object(["id": .string("u2")])])]))
        #expect(api.handle(request("GET", "/apps/3/channels/public-b/users")).status == 400)
    }

    @Test func cacheInfo() {
        _ = api.handle(request("POST", "/apps/3/events", body: #"{"name":"e","channel":"cache-x","data":"last"}"#))
        let info = api.handle(request("GET", "/apps/3/channels/cache-x", params: [("info", "cache")]))
        #expect(info.json?["cache"]?["data"] == .string("last"))
        #expect(info.json?["cache"]?["ttl"]?.intValue == 1800)
    }

    @Test func terminateConnectionsBothPaths() {
        for path in ["/apps/3/users/u1/terminate_connections", "/users/u1/terminate_connections"] {
            let t = FakeTransport()
            let s = PusherSession(
                app: app, config: ChannelsConfig(apps: [app]), loopIndex: 0, hub: hub, transport: t, webhooks: nil,
                metrics: hub.metrics, now: 0, socketID: PusherSocketID("9.9")!)
            s.start()
            let data = #"{"id":"u1"}"#
            let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: "9.9", userData: data)
            s.receiveText(
                PusherMessage(event: "pusher:signin", data: .object(["auth": .string(auth), "user_data": .string(data)])).serialized(),
                now: 0)
            #expect(api.handle(request("POST", path)) == .empty, "\(path)")
            loop.runPending()
            #expect(t.closedWith == 4009, "\(path)")
        }
    }

    @Test func refusals() {
        let body = #"{"name":"e","channel":"c","data":"x"}"#
        #expect(api.handle(request("POST", "/apps/99/events", body: body)).status == 404)
        #expect(api.handle(request("POST", "/apps/3/nothing", body: body)).status == 404)
        #expect(api.handle(request("POST", "/apps/3/events", body: body, timestamp: now - 601)).status == 401)
        #expect(api.handle(request("POST", "/apps/3/events", body: body, timestamp: now + 601)).status == 401)
        var tampered = request("POST", "/apps/3/events", body: body)
        tampered.body = Array(#"{"name":"e","channel":"c","data":"y"}"#.utf8)
        let md5 = api.handle(tampered)
        #expect(md5.status == 401 && md5.json?["error"]?.stringValue?.contains("body_md5") == true)
        let badSig = request("POST", "/apps/3/events", body: body) { pairs in pairs[pairs.count - 1].1 = String(repeating: "0", count: 64) }
        #expect(api.handle(badSig).status == 401)
        #expect(
            api.handle(request("POST", "/apps/3/events", body: body, app: AppConfig(id: "3", key: "278d425bdf160c739803", secret: "wrong")))
                .status == 401)
        #expect(api.handle(request("POST", "/apps/4/events", body: body, app: disabled)).status == 403)
        let big = "{\"name\":\"e\",\"channel\":\"c\",\"data\":\"\(String(repeating: "x", count: 10 * 1024 + 1))\"}"
        #expect(api.handle(request("POST", "/apps/3/events", body: big)).status == 413)
        let many = (0..<101).map { "\"c\($0)\"" }.joined(separator: ",")
        #expect(api.handle(request("POST", "/apps/3/events", body: "{\"name\":\"e\",\"channels\":[\(many)],\"data\":\"x\"}")).status == 400)
        #expect(api.handle(request("POST", "/apps/3/events", body: #"{"name":"e","channel":"bad name","data":"x"}"#)).status == 400)
        #expect(api.handle(request("POST", "/apps/3/events", body: "{not json")).status == 400)
        #expect(
            api.handle(request("POST", "/apps/3/events", body: #"{"name":"e","channel":"c","data":"x","socket_id":"abc"}"#)).status == 400)
        let error = api.handle(request("POST", "/apps/3/events", body: "{not json"))
        #expect(error.json?["code"] == .int(400) && error.json?["error"]?.stringValue != nil)
    }

    @Test func pathSegmentsAreCutAndDecoded() {
        #expect(PusherAPI.decodedSegments("/apps/3/events") == ["apps", "3", "events"])
        #expect(
            PusherAPI.decodedSegments("/apps/3/channels/presence-%C3%A9t%C3%A9/users") == ["apps", "3", "channels", "presence-été", "users"]
        )
        #expect(PusherAPI.decodedSegments("/apps/3/events/") == ["apps", "3", "events", ""])
        #expect(PusherAPI.decodedSegments("//apps") == ["", "apps"])
        #expect(PusherAPI.decodedSegments("/") == [""])
        #expect(PusherAPI.decodedSegments("") == [])
        #expect(PusherAPI.decodedSegments("apps/3") == ["3"])
        #expect(PusherAPI.decodedSegments("/apps/a%2Fb") == ["apps", "a/b"])
        // A "+" and malformed or non-UTF-8 escapes make the path malformed.
        #expect(PusherAPI.decodedSegments("/apps/a+b") == nil)
        #expect(PusherAPI.decodedSegments("/apps/%zz") == nil)
        #expect(PusherAPI.decodedSegments("/apps/%4") == nil)
        #expect(PusherAPI.decodedSegments("/apps/%ff%fe") == nil)
        let long = "/apps/" + String(repeating: "x", count: 10_000)
        #expect(PusherAPI.decodedSegments(long)?.last?.utf8.count == 10_000)
    }

    @Test func requestTargetSplitsAtTheFirstQuestionMark() {
        let request = PusherAPIRequest(method: "GET", target: "/apps/3/channels?a=1&b=x%3Fy?z")
        #expect(request.path == "/apps/3/channels")
        #expect(request.query["a"] == "1" && request.query["b"] == "x?y?z")
        let bare = PusherAPIRequest(method: "GET", target: "/apps/3/channels")
        #expect(bare.path == "/apps/3/channels" && bare.query.parameters.isEmpty)
        let empty = PusherAPIRequest(method: "GET", target: "/apps/3/channels?")
        #expect(empty.path == "/apps/3/channels" && empty.query.parameters.isEmpty)
        #expect(PusherAPIRequest(method: "GET", target: "?x=1").path == "")
    }

    @Test func malformedPathsAreRefused() {
        let body = #"{"name":"e","channel":"c","data":"x"}"#
        #expect(api.handle(request("POST", "/apps/3/ev%zzents", body: body)).status == 400)
        #expect(api.handle(request("POST", "/apps/3+/events", body: body)).status == 400)
        // An escaped segment is decoded before routing (and signed as sent).
        #expect(api.handle(request("POST", "/apps/%33/events", body: body)) == .empty)
    }

    @Test func signatureAndBodyDigestAreCaseInsensitiveHex() {
        let body = #"{"name":"e","channel":"c","data":"x"}"#
        let upper = request("POST", "/apps/3/events", body: body) { pairs in
            pairs[pairs.count - 1].1 = pairs[pairs.count - 1].1.uppercased()
        }
        #expect(api.handle(upper) == .empty)
        // An uppercase body_md5 (signed as sent) matches the body too.
        let md5 = PusherRequestSignature.bodyMD5(Array(body.utf8)).uppercased()
        let query = "auth_key=\(app.key)&auth_timestamp=\(now)&auth_version=1.0&body_md5=\(md5)"
        let signature = PusherSignature.hmacHex(secret: app.secret, Array("POST\n/apps/3/events\n\(query)".utf8))
        #expect(
            api.handle(
                PusherAPIRequest(
                    method: "POST", target: "/apps/3/events?\(query)&auth_signature=\(signature)",
                    body: Array(body.utf8))) == .empty)
        let short = request("POST", "/apps/3/events", body: body) { pairs in pairs[pairs.count - 1].1.removeLast() }
        #expect(api.handle(short).status == 401)
        let nonHex = request("POST", "/apps/3/events", body: body) { pairs in
            pairs[pairs.count - 1].1 = String(pairs[pairs.count - 1].1.dropLast()) + "\u{212A}"
        }
        #expect(api.handle(nonHex).status == 401)
        let noDigest = request("POST", "/apps/3/events", body: body) { pairs in pairs.removeAll { $0.0 == "body_md5" } }
        #expect(api.handle(noDigest).status == 401)
    }

    @Test func signatureOverMixedCaseKeysAndReceivedValues() {
        let body = #"{"name":"e","channel":"c","data":"x"}"#
        let bodyMD5 = PusherRequestSignature.bodyMD5(Array(body.utf8))
        // Keys are lowercased for signing; a value is accepted signed as received (still encoded).
        let raw = "auth_key=\(app.key)&auth_timestamp=\(now)&auth_version=1.0&body_md5=\(bodyMD5)&Extra_Key=a%2Cb"
        let signedRaw =
            "POST\n/apps/3/events\nauth_key=\(app.key)&auth_timestamp=\(now)&auth_version=1.0&body_md5=\(bodyMD5)&extra_key=a%2Cb"
        let signature = PusherSignature.hmacHex(secret: app.secret, Array(signedRaw.utf8))
        let accepted = PusherAPIRequest(method: "POST", target: "/apps/3/events?\(raw)&auth_signature=\(signature)", body: Array(body.utf8))
        #expect(api.handle(accepted) == .empty)
        let signedDecoded = signedRaw.replacing("a%2Cb", with: "a,b")
        let decodedSignature = PusherSignature.hmacHex(secret: app.secret, Array(signedDecoded.utf8))
        #expect(
            api.handle(
                PusherAPIRequest(
                    method: "POST", target: "/apps/3/events?\(raw)&auth_signature=\(decodedSignature)",
                    body: Array(body.utf8))) == .empty)
        let wrongValue = signedRaw.replacing("a%2Cb", with: "a%2Cc")
        let wrong = PusherSignature.hmacHex(secret: app.secret, Array(wrongValue.utf8))
        #expect(
            api.handle(
                PusherAPIRequest(
                    method: "POST", target: "/apps/3/events?\(raw)&auth_signature=\(wrong)",
                    body: Array(body.utf8))
            ).status == 401)
    }
}
