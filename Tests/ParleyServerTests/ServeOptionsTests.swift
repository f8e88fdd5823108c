import ParleyChat
import Testing

@testable import ParleyServer

@Suite struct ServeOptionsTests {
    @Test func defaults() throws {
        let o = try ServeOptions.parse([])
        #expect(o.host == "127.0.0.1")
        #expect(o.port == 6001)
        #expect(o.dataDirectory == "./parley-data")
        #expect(o.backend == .epoll)
        #expect(o.maxMessageSize == 65536)
    }

    @Test func flagsBeatEnvironment() throws {
        let env = ["PARLEY_HOST": "0.0.0.0", "PARLEY_PORT": "7000", "PARLEY_BACKEND": "poll"]
        let fromEnv = try ServeOptions.parse([], environment: env)
        #expect(fromEnv.host == "0.0.0.0" && fromEnv.port == 7000 && fromEnv.backend == .poll)
        let both = try ServeOptions.parse(["--port", "7100", "--host=127.0.0.2"], environment: env)
        #expect(both.port == 7100 && both.host == "127.0.0.2" && both.backend == .poll)
    }

    @Test func badInputIsReportedWithACode() {
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--port", "70000"]) }
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--port"]) }
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--bogus"]) }
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--backend", "kqueue"]) }
        do { _ = try ServeOptions.parse(["--threads", "x"]) } catch { #expect(error.code == "invalid_value") }
    }

    @Test func sendRateReachesTheChatLimits() throws {
        let defaults = try ServeOptions.parse([]).chatLimits
        #expect(defaults.sendsPerSecond == ChatLimits().sendsPerSecond && defaults.sendBurst == ChatLimits().sendBurst)
        let raised = try ServeOptions.parse(["--send-rate", "500"]).chatLimits
        #expect(raised.sendsPerSecond == 500 && raised.sendBurst == 1000)
        let off = try ServeOptions.parse([], environment: ["PARLEY_SEND_RATE": "0"]).chatLimits
        #expect(off.sendsPerSecond == 0)
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--send-rate", "-1"]) }
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--send-rate", "fast"]) }
    }

    @Test func devFlagAndHelp() throws {
        #expect(try ServeOptions.parse(["--dev"]).dev)
        #expect(try ServeOptions.parse(["--help"]).showHelp)
        for flag in ServeOptions.flags { #expect(ServeOptions.helpText.contains(flag.name)) }
    }

    @Test func logValuesAreQuotedWhenNeeded() {
        #expect(Logger.quoted("plain") == "plain")
        #expect(Logger.quoted("two words") == "\"two words\"")
        #expect(Logger.quoted("a\"b") == "\"a\\\"b\"")
    }
}
