import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("User tokens and app credentials")
struct TokenTests {
    let verifier = TokenVerifier(apps: ["1": ChatHarness.appA, "2": ChatHarness.appB], leeway: 30)
    let now: Int64 = 1_700_000_000

    func expectRefusal(
        _ token: String, _ code: ChatErrorCode, expectedApp: String? = nil, at time: Int64? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try verifier.verify(token, now: time ?? now, expectedApp: expectedApp)
            Issue.record("token accepted, expected \(code.rawValue)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.code.status.code == 401, sourceLocation: sourceLocation)
        }
    }

    func craft(header: JSONValue = TokenMinter.header, claims: JSONValue, secret: String = "secret-a") -> String {
        TokenMinter.sign(header: header, claims: claims, secret: Array(secret.utf8))
    }

    @Test func mintedTokenVerifies() throws {
        let token = TokenMinter(appID: "1", secret: "secret-a").mint(userID: "alice", now: now, lifetime: 60)
        let (app, claims) = try verifier.verify(token, now: now + 10, expectedApp: nil)
        #expect(app.id == "1")
        #expect(claims == UserToken(appID: "1", userID: "alice", issuedAt: now, expiresAt: now + 60))
    }

    @Test func expiredTokenIsRefusedAfterTheLeeway() throws {
        let token = TokenMinter(appID: "1", secret: "secret-a").mint(userID: "alice", now: now, lifetime: 60)
        _ = try verifier.verify(token, now: now + 60 + 30, expectedApp: nil)
        expectRefusal(token, .tokenExpired, at: now + 60 + 31)
    }

    @Test func algorithmsOtherThanHS256AreRefused() {
        let claims: JSONValue = .object(["sub": .string("alice"), "aud": .string("1"), "exp": .int(Int(now) + 60)])
        for alg in ["none", "HS512", "RS256", "hs256"] {
            expectRefusal(craft(header: .object(["alg": .string(alg), "typ": .string("JWT")]), claims: claims), .tokenAlgorithmUnsupported)
        }
        // An unsigned token in the "none" style, with an empty signature.
        let header = Base64URL.encode(JSONWriter.serialize(.object(["alg": .string("none")])))
        let body = Base64URL.encode(JSONWriter.serialize(claims))
        expectRefusal(header + "." + body + ".", .tokenAlgorithmUnsupported)
    }

    @Test func forgedSignaturesAreRefused() {
        let claims: JSONValue = .object(["sub": .string("alice"), "aud": .string("1"), "exp": .int(Int(now) + 60)])
        expectRefusal(craft(claims: claims, secret: "guess"), .tokenSignatureInvalid)
        // App B's secret signing a token that claims app A.
        expectRefusal(craft(claims: claims, secret: "secret-b"), .tokenSignatureInvalid)
        // A valid token whose claims were swapped after signing.
        let token = TokenMinter(appID: "1", secret: "secret-a").mint(userID: "alice", now: now, lifetime: 60)
        let pieces = token.split(separator: ".")
        let mallory = Base64URL.encode(
            JSONWriter.serialize(.object(["sub": .string("mallory"), "aud": .string("1"), "exp": .int(Int(now) + 60)])))
        expectRefusal("\(pieces[0]).\(mallory).\(pieces[2])", .tokenSignatureInvalid)
    }

    @Test func audienceDecidesTheApp() {
        let tokenA = TokenMinter(appID: "1", secret: "secret-a").mint(userID: "alice", now: now, lifetime: 60)
        expectRefusal(tokenA, .tokenWrongAudience, expectedApp: "2")
        expectRefusal(TokenMinter(appID: "9", secret: "x").mint(userID: "alice", now: now, lifetime: 60), .unknownApp)
        expectRefusal(tokenA, .unknownApp, expectedApp: "9")
    }

    @Test func malformedTokensAreRefused() {
        for token in ["", "abc", "a.b", "a.b.c.d", "!!.??.**", "eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln"] {
            expectRefusal(token, token.hasPrefix("eyJhbGciOiJIUzI1NiJ9") ? .tokenMalformed : .tokenMalformed)
        }
        let noSub: JSONValue = .object(["aud": .string("1"), "exp": .int(Int(now) + 60)])
        expectRefusal(craft(claims: noSub), .tokenMalformed)
        let noExp: JSONValue = .object(["sub": .string("alice"), "aud": .string("1")])
        expectRefusal(craft(claims: noExp), .tokenMalformed)
        let badSub: JSONValue = .object(["sub": .string("al ice"), "aud": .string("1"), "exp": .int(Int(now) + 60)])
        expectRefusal(craft(claims: badSub), .tokenMalformed)
    }

    @Test func futureIssueTimesAreRefused() {
        let claims: JSONValue = .object([
            "sub": .string("alice"), "aud": .string("1"), "iat": .int(Int(now) + 3600), "exp": .int(Int(now) + 7200)
        ])
        expectRefusal(craft(claims: claims), .tokenNotYetValid)
    }

    @Test func cachedTokenIsStillRefusedOnceExpired() throws {
        let token = TokenMinter(appID: "1", secret: "secret-a").mint(userID: "alice", now: now, lifetime: 60)
        _ = try verifier.verify(token, now: now + 10, expectedApp: nil)
        #expect(verifier.cache.count == 1)
        #expect(try verifier.verify(token, now: now + 90, expectedApp: nil).1.userID == "alice")
        expectRefusal(token, .tokenExpired, at: now + 91)
    }

    @Test func cachedTokenDoesNotVouchForAlteredCopies() throws {
        let token = TokenMinter(appID: "1", secret: "secret-a").mint(userID: "alice", now: now, lifetime: 60)
        _ = try verifier.verify(token, now: now, expectedApp: nil)
        let pieces = token.split(separator: ".")
        let mallory = Base64URL.encode(
            JSONWriter.serialize(.object(["sub": .string("mallory"), "aud": .string("1"), "exp": .int(Int(now) + 60)])))
        expectRefusal("\(pieces[0]).\(mallory).\(pieces[2])", .tokenSignatureInvalid)
        var signature = Array(pieces[2].utf8)
        signature[0] = signature[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        expectRefusal("\(pieces[0]).\(pieces[1]).\(String(decoding: signature, as: UTF8.self))", .tokenSignatureInvalid)
        // The same token addressed at another app is judged for that app, not served from the cache.
        expectRefusal(token, .tokenWrongAudience, expectedApp: "2")
        #expect(verifier.cache.count == 1)
    }

    @Test func cachedTokenIsRefusedBeforeItsNotBeforeTime() throws {
        let claims: JSONValue = .object([
            "sub": .string("alice"), "aud": .string("1"), "nbf": .int(Int(now) + 100), "exp": .int(Int(now) + 7200)
        ])
        let token = craft(claims: claims)
        _ = try verifier.verify(token, now: now + 100, expectedApp: nil)
        expectRefusal(token, .tokenNotYetValid, at: now + 69)
    }

    @Test func cacheStaysWithinItsCapacity() throws {
        let small = TokenVerifier(apps: ["1": ChatHarness.appA], leeway: 30, cacheCapacity: 3)
        let minter = TokenMinter(appID: "1", secret: "secret-a")
        for round in 0..<2 {
            for user in 0..<10 {
                let (_, claims) = try small.verify(minter.mint(userID: "u\(user)", now: now, lifetime: 60), now: now, expectedApp: nil)
                #expect(claims.userID == "u\(user)", "round \(round)")
                #expect(small.cache.count <= 3)
            }
        }
        let uncached = TokenVerifier(apps: ["1": ChatHarness.appA], leeway: 30, cacheCapacity: 0)
        _ = try uncached.verify(minter.mint(userID: "alice", now: now, lifetime: 60), now: now, expectedApp: nil)
        #expect(uncached.cache.count == 0)
    }

    @Test func base64URLRoundTripsAndRejectsPadding() {
        for count in 0..<20 {
            let bytes = (0..<count).map { UInt8(($0 * 37 + 250) & 0xFF) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(Array(encoded.utf8)) == bytes)
        }
        #expect(Base64URL.decode(Array("YQ==".utf8)) == nil)
        #expect(Base64URL.decode(Array("a".utf8)) == nil)
    }

    @Test(arguments: ChatEngine.available)
    func serviceAnswers401WithDistinctCodes(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice")
            #expect(await h.call(.GET, "/v1/me").errorCode == "authentication_required")
            #expect(await h.call(.GET, "/v1/me", as: .user("alice", app: ChatHarness.appA)).status == 200)
            let expired = h.token("alice", lifetime: 10)
            h.clock.advance(seconds: 100)
            #expect(await h.call(.GET, "/v1/me", as: .bearer(expired)).errorCode == "token_expired")
            let forged = TokenMinter(appID: "1", secret: "not-the-secret").mint(userID: "alice", now: h.clock.seconds, lifetime: 60)
            #expect(await h.call(.GET, "/v1/me", as: .bearer(forged)).errorCode == "token_signature_invalid")
            var wrongKey = ChatHarness.appA
            wrongKey.secret = "wrong"
            #expect(await h.call(.GET, "/v1/users", as: .app(wrongKey)).errorCode == "invalid_credentials")
            let reply = await h.call(.GET, "/v1/me", as: .user("alice", app: ChatHarness.appA), headers: [("X-Parley-App", "2")])
            #expect(reply.status == 401 && reply.errorCode == "token_wrong_audience")
            #expect(await h.call(.GET, "/v1/me", headers: [("Authorization", "Digest abc")]).errorCode == "authentication_required")
        }
    }

    @Test func tokenOfAppAIsUselessInAppB() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice", app: ChatHarness.appA)
            await h.createUsers("alice", "bob", app: ChatHarness.appB)
            let roomB = await h.createRoom("bob", kind: "public", app: ChatHarness.appB)
            // Alice of app A addressing app B's room: her token cannot be used for app B at all.
            let crossed = await h.call(
                .GET, "/v1/rooms/\(roomB)", as: .user("alice", app: ChatHarness.appA), headers: [("X-Parley-App", "2")])
            #expect(crossed.errorCode == "token_wrong_audience")
            // Without the header her token addresses app A, where app B's room does not exist.
            let isolated = await h.call(.GET, "/v1/rooms/\(roomB)", as: .user("alice", app: ChatHarness.appA))
            #expect(isolated.status == 404 && isolated.errorCode == "room_not_found")
            // App A's credentials are not app B's either.
            let basic = await h.call(.GET, "/v1/rooms/\(roomB)", as: .app(ChatHarness.appA))
            #expect(basic.errorCode == "room_not_found")
        }
    }
}
