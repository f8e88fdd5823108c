import Testing

@testable import ParleyWire

@Suite struct CORSPolicyTests {
    @Test func originsAreNormalisedAsBrowsersSendThem() {
        #expect(CORSPolicy.normalize("https://App.Example.com/") == "https://app.example.com")
        #expect(CORSPolicy.normalize("http://example.com:80") == "http://example.com")
        #expect(CORSPolicy.normalize("https://example.com:443") == "https://example.com")
        #expect(CORSPolicy.normalize("http://127.0.0.1:8080") == "http://127.0.0.1:8080")
        #expect(CORSPolicy.normalize("http://[::1]:3000") == "http://[::1]:3000")
        for bad in [
            "example.com", "ftp://example.com", "https://example.com/app", "https://", "http://a:0", "http://a:99999",
            "null", "*", "http://user@host", "http://[::1"
        ] {
            #expect(CORSPolicy.normalize(bad) == nil, "\(bad)")
        }
    }

    @Test func onlyListedOriginsAreAllowed() {
        let policy = CORSPolicy(origins: ["https://app.example.com", "http://localhost:5173"])
        #expect(policy.allows("https://app.example.com"))
        #expect(policy.allows("http://localhost:5173"))
        #expect(!policy.allows("http://app.example.com"))
        #expect(!policy.allows("https://app.example.com:8443"))
        #expect(!policy.allows("http://localhost:5174"))
        #expect(!policy.allows("null"))
    }

    @Test func loopbackOriginsOnAnyPortInDevelopment() {
        let policy = CORSPolicy(allowsLoopback: true)
        for origin in ["http://localhost", "https://localhost:8443", "http://127.0.0.1:3000", "http://[::1]:9"] {
            #expect(policy.allows(origin), "\(origin)")
        }
        for origin in ["http://localhost.example.com", "http://127.0.0.2", "http://10.0.0.1:3000", "https://example.com"] {
            #expect(!policy.allows(origin), "\(origin)")
        }
    }

    @Test func preflightEchoesTheOriginNeverAStar() throws {
        let policy = CORSPolicy(origins: ["https://app.example.com"])
        let headers = try #require(policy.preflightHeaders(origin: "https://app.example.com", methods: [.GET, .POST]))
        #expect(headers.first("Access-Control-Allow-Origin") == "https://app.example.com")
        #expect(headers.first("Access-Control-Allow-Methods") == "GET, POST")
        #expect(headers.first("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        #expect(headers.first("Access-Control-Allow-Headers")?.contains("Content-Type") == true)
        #expect(headers.first("Access-Control-Max-Age") == "600")
        #expect(headers.first("Vary") == "Origin")
        #expect(headers.first("Access-Control-Allow-Credentials") == nil)
        #expect(policy.preflightHeaders(origin: "https://evil.example.com", methods: [.GET]) == nil)
    }

    @Test func actualResponsesCarryTheOriginOnlyWhenAllowed() {
        let policy = CORSPolicy(origins: ["https://app.example.com"])
        let allowed = policy.responseHeaders(origin: "https://app.example.com")
        #expect(allowed.first("Access-Control-Allow-Origin") == "https://app.example.com")
        #expect(allowed.first("Vary") == "Origin")
        let refused = policy.responseHeaders(origin: "https://evil.example.com")
        #expect(refused.first("Access-Control-Allow-Origin") == nil)
        #expect(!refused.contains { $0.name.lowercased().hasPrefix("access-control-") })
    }

    @Test func unionAllowsWhatEitherAllows() {
        let a = CORSPolicy(origins: ["https://a.example"])
        let b = CORSPolicy(origins: ["https://b.example"], allowsLoopback: true)
        let both = a.union(b)
        #expect(both.allows("https://a.example") && both.allows("https://b.example") && both.allows("http://localhost:1"))
        #expect(!a.allows("https://b.example"))
        #expect(CORSPolicy().isEmpty && !both.isEmpty)
    }
}
