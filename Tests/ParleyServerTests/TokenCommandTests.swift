import ParleyWire
import Testing

@testable import ParleyServer

/// `parley token`: argument parsing and the token it mints.
@Suite struct TokenCommandTests {
    /// A base64url segment decoded as JSON.
    func json(_ segment: Substring) throws -> JSONValue {
        var base64 = String(segment.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return try JSONParser.parse(try #require(Base64.decode(base64)))
    }

    /// The claims of a JWT, decoded without checking anything.
    func claims(_ token: String) throws -> JSONValue {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        return try json(parts[1])
    }

    @Test func mintsAnHS256TokenForTheDevelopmentApp() throws {
        let request = try TokenCommand.parse(["--dev", "--user", "alice", "--ttl", "60"], environment: [:])
        let token = try TokenCommand.mint(request, now: 1_000).get()
        let header = try json(token.split(separator: ".")[0])
        #expect(header["alg"]?.stringValue == "HS256")
        let c = try claims(token)
        #expect(c["sub"]?.stringValue == "alice" && c["aud"]?.stringValue == "1")
        #expect(c["iat"] == .int(1_000) && c["exp"] == .int(1_060))
        // The signature is HMAC-SHA256 over header.claims with the app secret.
        let signingInput = token.split(separator: ".").prefix(2).joined(separator: ".")
        let expected = String(
            Base64.encode(Digest.hmacSHA256(key: Array("dev-secret".utf8), Array(signingInput.utf8)))
                .compactMap { $0 == "=" ? nil : $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        #expect(String(token.split(separator: ".")[2]) == expected)
    }

    @Test func environmentSelectsTheDevelopmentApp() throws {
        let request = try TokenCommand.parse(["--user", "bob"], environment: ["PARLEY_DEV": "1"])
        #expect(try claims(try TokenCommand.mint(request, now: 5).get())["aud"]?.stringValue == "1")
    }

    @Test func refusesWhatItCannotMint() throws {
        #expect(throws: ServeOptionsError.self) { try TokenCommand.parse(["--dev"], environment: [:]) }  // no --user
        #expect(throws: ServeOptionsError.self) { try TokenCommand.parse(["--dev", "--user", "a", "--ttl", "0"], environment: [:]) }
        #expect(throws: ServeOptionsError.self) { try TokenCommand.parse(["--dev", "--user"], environment: [:]) }
        #expect(throws: ServeOptionsError.self) { try TokenCommand.parse(["--user", "a", "--bogus"], environment: [:]) }
        let unknownApp = try TokenCommand.parse(["--dev", "--app", "9", "--user", "a"], environment: [:])
        if case .failure(let error) = TokenCommand.mint(unknownApp, now: 0) {
            #expect(error.code == "unknown_app")
        } else {
            Issue.record("an unknown app must fail")
        }
        let noApps = try TokenCommand.parse(["--user", "a"], environment: [:])
        if case .failure(let error) = TokenCommand.mint(noApps, now: 0) {
            #expect(error.code == "no_apps")
        } else {
            Issue.record("no config and no --dev must fail")
        }
    }

    @Test func databaseFlagAndEnvironment() throws {
        #expect(try ServeOptions.parse([]).database == nil)
        let env = ["PARLEY_DATABASE": "postgres://db/parley"]
        #expect(try ServeOptions.parse([], environment: env).database == "postgres://db/parley")
        #expect(try ServeOptions.parse(["--database", "/tmp/x.sqlite"], environment: env).database == "/tmp/x.sqlite")
    }
}
