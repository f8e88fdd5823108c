import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyServer

/// `/metrics` answers only a bearer of the metrics token, or anyone on a loopback dev server.
@Suite struct MetricsAccessTests {
    func config(token: String?) throws -> ChannelsConfig {
        var json = #"{"apps":[{"id":"1","key":"k","secret":"s"}]"#
        if let token { json += #","metrics_token":"\#(token)""# }
        return try ChannelsConfig.parse(Array((json + "}").utf8))
    }

    @Test func aTokenIsRequiredOnceSet() throws {
        let access = MetricsAccess(options: try ServeOptions.parse(["--config", "x"]), config: try config(token: "s3cret"))
        #expect(access.rule == .token("s3cret"))
        #expect(!access.admits(authorization: nil))
        #expect(!access.admits(authorization: "Bearer wrong"))
        #expect(!access.admits(authorization: "Bearer s3cre"))
        #expect(!access.admits(authorization: "Basic s3cret"))
        #expect(access.admits(authorization: "Bearer s3cret"))
        #expect(access.admits(authorization: "bearer s3cret"))
    }

    @Test func theFlagBeatsTheConfig() throws {
        let options = try ServeOptions.parse(["--metrics-token", "from-flag"], environment: ["PARLEY_METRICS_TOKEN": "from-env"])
        #expect(options.metricsToken == "from-flag")
        #expect(try ServeOptions.parse([], environment: ["PARLEY_METRICS_TOKEN": "from-env"]).metricsToken == "from-env")
        #expect(MetricsAccess(options: options, config: try config(token: "from-config")).rule == .token("from-flag"))
    }

    @Test func withoutATokenOnlyALoopbackDevServerIsOpen() throws {
        #expect(MetricsAccess(options: try ServeOptions.parse(["--dev"]), config: .development).rule == .open)
        #expect(MetricsAccess(options: try ServeOptions.parse(["--dev", "--host", "::1"]), config: .development).rule == .open)
        #expect(MetricsAccess(options: try ServeOptions.parse(["--dev", "--host", "0.0.0.0"]), config: .development).rule == .closed)
        let closed = MetricsAccess(options: try ServeOptions.parse(["--config", "x"]), config: try config(token: nil))
        #expect(closed.rule == .closed && !closed.admits(authorization: "Bearer anything") && !closed.admits(authorization: nil))
        // A dev server with a token wants it too.
        #expect(MetricsAccess(options: try ServeOptions.parse(["--dev", "--metrics-token", "t"]), config: .development).rule == .token("t"))
    }

    @Test func anEmptyConfigTokenIsRefused() {
        #expect(throws: ChannelsConfigError.self) { try config(token: "") }
    }
    @Test func aListenerOfItsOwnIsOpenOnLoopbackOnlyAndATokenStillWins() throws {
        let options = try ServeOptions.parse(["--config", "x", "--metrics-address", "127.0.0.1:9101"])
        #expect(options.metricsListen?.host == "127.0.0.1" && options.metricsListen?.port == 9101)
        #expect(MetricsAccess(options: options, config: try config(token: nil), listenerHost: "127.0.0.1").rule == .open)
        #expect(MetricsAccess(options: options, config: try config(token: nil), listenerHost: "::1").rule == .open)
        #expect(MetricsAccess(options: options, config: try config(token: nil), listenerHost: "0.0.0.0").rule == .closed)
        #expect(MetricsAccess(options: options, config: try config(token: "t"), listenerHost: "127.0.0.1").rule == .token("t"))
    }

    @Test(arguments: [("127.0.0.1:9101", "127.0.0.1", 9101), ("[::1]:9101", "::1", 9101), ("0.0.0.0:0", "0.0.0.0", 0)])
    func metricsAddressesAreHostAndPort(text: String, host: String, port: Int) throws {
        let listen = try ServeOptions.metricsListener(text)
        #expect(listen.host == host && listen.port == port)
    }

    @Test(arguments: ["9101", "127.0.0.1", "127.0.0.1:99999", ":9101", "[::1:9101", "host:port"])
    func malformedMetricsAddressesAreRefused(text: String) {
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--metrics-address", text]) }
    }
}
