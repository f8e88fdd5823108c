import Testing

@testable import ParleyWire

/// Known answers and codecs of the Pusher protocol (shared/docs/pusher-protocol.md).
@Suite struct PusherWireTests {
    let key = "278d425bdf160c739803"
    let secret = "7ad3773142a6692b25b8"
    let socket = "1234.1234"

    @Test func privateChannelKnownAnswer() {
        let auth = PusherSignature.channelAuth(key: key, secret: secret, socketID: socket, channel: "private-foobar")
        #expect(auth == "\(key):58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4")
        #expect(
            PusherSignature.verifyChannelAuth(auth, key: key, secret: secret, socketID: socket, channel: "private-foobar", channelData: nil)
        )
        #expect(
            !PusherSignature.verifyChannelAuth(
                auth, key: key, secret: secret, socketID: "1234.1235", channel: "private-foobar", channelData: nil))
        #expect(
            !PusherSignature.verifyChannelAuth(
                auth, key: "other", secret: secret, socketID: socket, channel: "private-foobar", channelData: nil))
        #expect(
            !PusherSignature.verifyChannelAuth(
                "nocolon", key: key, secret: secret, socketID: socket, channel: "private-foobar", channelData: nil))
    }

    @Test func presenceChannelKnownAnswer() {
        let data = #"{"user_id":10,"user_info":{"name":"Mr. Channels"}}"#
        let auth = PusherSignature.channelAuth(key: key, secret: secret, socketID: socket, channel: "presence-foobar", channelData: data)
        #expect(auth == "\(key):31935e7d86dba64c2a90aed31fdc61869f9b22ba9d8863bba239c03ca481bc80")
        // The exact bytes are signed: a re-serialisation with other spacing does not verify.
        let respaced = #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#
        #expect(
            !PusherSignature.verifyChannelAuth(
                auth, key: key, secret: secret, socketID: socket, channel: "presence-foobar", channelData: respaced))
    }

    @Test func userSigninKnownAnswer() {
        let auth = PusherSignature.userAuth(key: key, secret: secret, socketID: socket, userData: #"{"id":"12345"}"#)
        #expect(auth == "\(key):4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba")
        #expect(PusherSignature.verifyUserAuth(auth, key: key, secret: secret, socketID: socket, userData: #"{"id":"12345"}"#))
        #expect(!PusherSignature.verifyUserAuth(auth, key: key, secret: secret, socketID: socket, userData: #"{"id":"12346"}"#))
    }

    @Test func httpAPIKnownAnswer() {
        let body = Array(#"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#.utf8)
        #expect(PusherRequestSignature.bodyMD5(body) == "ec365a775a4cd0599faeb73354201b6f")
        let query = PusherQuery([
            ("auth_key", key), ("auth_timestamp", "1353088179"), ("auth_version", "1.0"),
            ("body_md5", "ec365a775a4cd0599faeb73354201b6f")
        ])
        let signature = PusherRequestSignature.sign(secret: secret, method: "POST", path: "/apps/3/events", query: query)
        #expect(signature == "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c")
        var signed = query
        signed.parameters.append(.init(key: "auth_signature", rawValue: signature, value: signature))
        #expect(
            PusherRequestSignature.verify(
                method: "POST", path: "/apps/3/events", query: signed, body: body, secret: secret, now: 1353088179) == nil)
        #expect(
            PusherRequestSignature.verify(
                method: "POST", path: "/apps/3/events", query: signed, body: body, secret: secret, now: 1353088179 + 601) == .staleTimestamp
        )
        #expect(
            PusherRequestSignature.verify(
                method: "POST", path: "/apps/3/events", query: signed, body: body + [0x20], secret: secret, now: 1353088179)
                == .bodyMD5Mismatch)
        #expect(
            PusherRequestSignature.verify(
                method: "POST", path: "/apps/3/events", query: signed, body: body, secret: "wrong", now: 1353088179) == .badSignature)
        #expect(
            PusherRequestSignature.verify(method: "GET", path: "/apps/3/events", query: signed, body: body, secret: secret, now: 1353088179)
                == .badSignature)
        // From the head alone: the signature (which covers body_md5) and the window, not the body.
        #expect(
            PusherRequestSignature.verifyHead(method: "POST", path: "/apps/3/events", query: signed, secret: secret, now: 1353088179) == nil
        )
        #expect(
            PusherRequestSignature.verifyHead(method: "POST", path: "/apps/3/events", query: signed, secret: "wrong", now: 1353088179)
                == .badSignature)
        #expect(
            PusherRequestSignature.verifyHead(method: "POST", path: "/apps/3/events", query: signed, secret: secret, now: 1353088179 + 601)
                == .staleTimestamp)
    }

    @Test func signatureOverDecodedQueryValues() {
        // The Python library signs `info=user_count,subscription_count` but sends `%2C`.
        let ts = "1700000000"
        let decoded = PusherQuery([
            ("auth_key", key), ("auth_timestamp", ts), ("auth_version", "1.0"), ("info", "user_count,subscription_count")
        ])
        let signature = PusherRequestSignature.sign(secret: secret, method: "GET", path: "/apps/3/channels/presence-x", query: decoded)
        let wire = PusherQuery(
            parsing:
                "auth_key=\(key)&auth_timestamp=\(ts)&auth_version=1.0&info=user_count%2Csubscription_count&auth_signature=\(signature)")
        #expect(wire["info"] == "user_count,subscription_count")
        #expect(
            PusherRequestSignature.verify(
                method: "GET", path: "/apps/3/channels/presence-x", query: wire, body: [], secret: secret, now: 1700000000) == nil)
        let missing = PusherQuery(parsing: "auth_key=\(key)&auth_version=1.0&auth_signature=\(signature)")
        #expect(
            PusherRequestSignature.verify(method: "GET", path: "/x", query: missing, body: [], secret: secret, now: 0)
                == .missingParameter("auth_timestamp"))
    }

    @Test func queryParsingKeepsRawAndDecodedForms() {
        let query = PusherQuery(parsing: "a=1&&b&c=x%2Cy+z&d%5B%5D=%E2%82%AC&e=%zz&f==g&=h&")
        let expected: [PusherQuery.Parameter] = [
            .init(key: "a", rawValue: "1", value: "1"),
            .init(key: "b", rawValue: "", value: ""),  // no '=': empty value
            .init(key: "c", rawValue: "x%2Cy+z", value: "x,y z"),
            .init(key: "d[]", rawValue: "%E2%82%AC", value: "€"),  // encoded key, multi-byte value
            .init(key: "e", rawValue: "%zz", value: "%zz"),  // malformed escape: kept as received
            .init(key: "f", rawValue: "=g", value: "=g"),  // only the first '=' splits
            .init(key: "", rawValue: "h", value: "h")
        ]
        #expect(query.parameters == expected)
        #expect(PusherQuery(parsing: "").parameters.isEmpty)
        #expect(PusherQuery(parsing: "x=%C3%28").parameters.first?.value == "%C3%28", "invalid UTF-8 after decoding stays raw")
        let tail = "k=v&z=1"
        #expect(PusherQuery(parsing: tail.dropFirst(4)).parameters == [.init(key: "z", rawValue: "1", value: "1")])
    }

    @Test func webhookSignature() {
        let body = Array(#"{"time_ms":1,"events":[]}"#.utf8)
        let signature = PusherSignature.webhookSignature(secret: secret, body: body)
        #expect(signature == Digest.hmacSHA256(key: Array(secret.utf8), body).hexString)
        #expect(PusherSignature.verifyWebhook(signature: signature, secret: secret, body: body))
        #expect(!PusherSignature.verifyWebhook(signature: signature, secret: secret, body: body + [0x20]))
    }

    @Test func encryptedSharedSecret() {
        let master = [UInt8](repeating: 7, count: 32)
        let expected = Base64.encode(Digest.sha256(Array("private-encrypted-x".utf8) + master))
        #expect(PusherSignature.encryptedChannelSharedSecret(channel: "private-encrypted-x", masterKey: master) == expected)
    }

    @Test func channelClassification() throws {
        #expect(try PusherChannel(validating: "collabo").kind == .public)
        #expect(try PusherChannel(validating: "cache-x").isCache)
        #expect(try PusherChannel(validating: "private-a").kind == .private)
        #expect(try PusherChannel(validating: "private-cache-a").isCache)
        #expect(try PusherChannel(validating: "private-encrypted-a").kind == .privateEncrypted)
        #expect(try PusherChannel(validating: "private-encrypted-cache-a").isCache)
        #expect(try PusherChannel(validating: "presence-a").kind == .presence)
        #expect(try PusherChannel(validating: "presence-cache-a").isCache)
        #expect(try !PusherChannel(validating: "presence-a").isCache)
        let user = try PusherChannel(validating: "#server-to-user-42")
        #expect(user.kind == .serverToUser && user.serverToUserID == "42")
        #expect(try PusherChannel(validating: "a_b-c=d@e,f.g;h").kind == .public)
    }

    @Test func channelNameRejections() {
        #expect(throws: PusherChannel.NameError.empty) { try PusherChannel(validating: "") }
        #expect(throws: PusherChannel.NameError.tooLong) { try PusherChannel(validating: String(repeating: "a", count: 201)) }
        #expect(PusherChannel(String(repeating: "a", count: 200)) != nil)
        #expect(throws: PusherChannel.NameError.invalidCharacter) { try PusherChannel(validating: "a b") }
        #expect(throws: PusherChannel.NameError.invalidCharacter) { try PusherChannel(validating: "ché") }
        #expect(throws: PusherChannel.NameError.reservedPrefix) { try PusherChannel(validating: "#other") }
        #expect(throws: PusherChannel.NameError.reservedPrefix) { try PusherChannel(validating: "#server-to-user-") }
        #expect(throws: PusherChannel.NameError.invalidCharacter) { try PusherChannel(validating: "#server-to-user-a b") }
    }

    @Test func socketIDs() {
        #expect(PusherSocketID("123.456") != nil)
        for bad in ["123", "123.", ".1", "a.1", "1.2.3", "", "1 .2"] { #expect(PusherSocketID(bad) == nil, "\(bad)") }
        let a = PusherSocketID.random(), b = PusherSocketID.random()
        #expect(PusherSocketID.isValid(a.rawValue) && a != b)
    }

    @Test func framesUseTheDocumentedEncodings() throws {
        let established = try PusherMessage.parse(PusherFrame.connectionEstablished(socketID: "1.2", activityTimeout: 120))
        #expect(established.event == "pusher:connection_established")
        // data is a JSON string (double encoded) — pysher calls json.loads on it.
        let inner = try JSONParser.parse(try #require(established.data?.stringValue))
        #expect(inner["socket_id"] == .string("1.2") && inner["activity_timeout"] == .int(120))

        let error = try PusherMessage.parse(PusherFrame.error(code: 4001, message: "nope"))
        #expect(error.data?["code"] == .int(4001) && error.data?["message"] == .string("nope"))
        #expect(try PusherMessage.parse(PusherFrame.error(code: nil, message: "x")).data?["code"] == .null)

        let presence = try PusherMessage.parse(
            PusherFrame.presenceSubscriptionSucceeded(
                channel: "presence-a", members: [(id: "1", info: .object(["n": .string("x")])), (id: "2", info: .null)]))
        let p = try #require(presence.dataObject?["presence"])
        #expect(p["ids"] == .array([.string("1"), .string("2")]) && p["count"] == .int(2))
        #expect(p["hash"]?["1"]?["n"] == .string("x"))

        let event = PusherFrame.channelEvent(event: "text_update", channel: "collabo", data: .string(#"{"text":"hi"}"#))
        #expect(String(decoding: event, as: UTF8.self) == #"{"event":"text_update","channel":"collabo","data":"{\"text\":\"hi\"}"}"#)
        let client = try PusherMessage.parse(
            PusherFrame.channelEvent(event: "client-x", channel: "presence-a", data: .object(["a": .int(1)]), userID: "u1"))
        #expect(client.userID == "u1" && client.data == .object(["a": .int(1)]))
        let data: JSONValue = .object(["a": .int(1), "s": .string("q\"\n")])
        #expect(
            PusherFrame.channelEvent(event: "e", channel: "c", encodedData: JSONWriter.serialize(data), userID: "u1")
                == PusherFrame.channelEvent(event: "e", channel: "c", data: data, userID: "u1"))
        #expect(
            PusherFrame.channelEvent(event: "e", channel: "c", encodedData: JSONWriter.serialize(data))
                == PusherFrame.channelEvent(event: "e", channel: "c", data: data))

        let signin = try PusherMessage.parse(PusherFrame.signinSuccess(userData: #"{"id":"1"}"#))
        #expect(signin.data?["user_data"] == .string(#"{"id":"1"}"#))
        let miss = try PusherMessage.parse(PusherFrame.cacheMiss(channel: "cache-a"))
        #expect(miss.event == "pusher:cache_miss" && miss.channel == "cache-a" && miss.data == nil)
    }

    @Test func messageParsingRejectsNonMessages() {
        #expect(throws: PusherMessage.ParseError.notAnObject) { try PusherMessage.parse(Array("[1]".utf8)) }
        #expect(throws: PusherMessage.ParseError.missingEvent) { try PusherMessage.parse(Array(#"{"data":1}"#.utf8)) }
        #expect(throws: PusherMessage.ParseError.missingEvent) { try PusherMessage.parse(Array(#"{"event":1}"#.utf8)) }
        #expect(throws: PusherMessage.ParseError.invalidChannel) { try PusherMessage.parse(Array(#"{"event":"a","channel":3}"#.utf8)) }
        #expect(throws: PusherMessage.ParseError.self) { try PusherMessage.parse(Array("{not json".utf8)) }
    }

    @Test func dataObjectAcceptsObjectOrString() throws {
        let a = try PusherMessage.parse(Array(#"{"event":"pusher:subscribe","data":{"channel":"x"}}"#.utf8))
        let b = try PusherMessage.parse(Array(#"{"event":"pusher:subscribe","data":"{\"channel\":\"x\"}"}"#.utf8))
        #expect(a.dataObject?["channel"] == .string("x"))
        #expect(b.dataObject?["channel"] == .string("x"))
    }
}
