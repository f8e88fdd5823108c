import Testing

@testable import ParleyWire

@Suite struct RedisURLTests {
    @Test func readsEveryPart() throws {
        #expect(try RedisURL(parsing: "redis://cache:6380/2") == RedisURL(host: "cache", port: 6380, database: 2))
        #expect(try RedisURL(parsing: "redis://127.0.0.1") == RedisURL(host: "127.0.0.1"))
        #expect(
            try RedisURL(parsing: "redis://parley:s%40cret%2F1@[::1]:7000/0")
                == RedisURL(host: "::1", port: 7000, user: "parley", password: "s@cret/1"))
        #expect(try RedisURL(parsing: "redis://:pw@host/") == RedisURL(host: "host", password: "pw"))
        #expect(try RedisURL(parsing: "redis://default@host").user == "default")
    }

    @Test func refusesWhatItCannotHonour() {
        for text in [
            "http://host", "redis://", "redis://host:0", "redis://host:65536", "redis://host:x", "redis://host/db",
            "redis://host?timeout=1", "redis://[::1", "redis://ho st", "redis://u:%zz@host"
        ] {
            #expect(throws: RedisURL.ParseError.self, "\(text)") { try RedisURL(parsing: text) }
        }
        #expect {
            try RedisURL(parsing: "rediss://host")
        } throws: { ($0 as? RedisURL.ParseError)?.code == "redis_url_tls_unsupported" }
    }

    @Test func theDescriptionHidesThePassword() throws {
        #expect(try RedisURL(parsing: "redis://u:secret@h:1/3").description == "redis://u:***@h:1/3")
        #expect(try RedisURL(parsing: "redis://[::1]").description == "redis://[::1]:6379/0")
    }
}
