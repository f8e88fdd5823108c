import Foundation
import ParleyNet
import Testing

@testable import ParleyServer

@Suite struct LoggingTests {
    @Test func aFloodOfOneNoticeIsOneLinePerWindowWithTheCountLeftOut() {
        var throttle = NoticeThrottle(windowMilliseconds: 10_000)
        #expect(throttle.admit("quota|1", now: 0) == 0)
        #expect(throttle.admit("quota|1", now: 10) == nil)
        #expect(throttle.admit("quota|1", now: 9_999) == nil)
        #expect(throttle.admit("quota|2", now: 9_999) == 0)
        #expect(throttle.admit("quota|1", now: 10_000) == 2)
        #expect(throttle.admit("quota|1", now: 10_001) == nil)
    }

    @Test func jsonLinesEscapeWhatJSONNeeds() throws {
        let line = Logger.jsonLine(
            time: "t", level: .warning, label: "access", message: "a \"quoted\"\nline",
            fields: [("route", "/v1/{x}"), ("odd", "\u{1}\\")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(
            object == [
                "time": "t", "level": "warning", "component": "access", "msg": "a \"quoted\"\nline",
                "route": "/v1/{x}", "odd": "\u{1}\\"
            ])
    }

    /// The text line as the access log writes it: UTC time with milliseconds, plain values as
    /// they are, others quoted with `"`, `\` and newlines escaped (bytes beyond ASCII kept).
    @Test func textLinesQuoteWhatIsNotPlainAndStampTheTimeInUTC() {
        let line = Logger.textLine(
            time: timespec(tv_sec: 1_796_223_260, tv_nsec: 7_999_999), level: .info, label: "access", message: "request",
            fields: [
                ("method", "POST"), ("route", "/v1/{x}"), ("empty", ""), ("spaced", "a b"), ("odd", "say \"hi\"\\\nbye"),
                ("eq", "a=b"), ("accent", "café"), ("control", "\u{1}")
            ])
        #expect(
            line
                == "time=2026-12-02T14:54:20.007Z level=info component=access msg=request method=POST route=/v1/{x} empty=\"\" "
                + "spaced=\"a b\" odd=\"say \\\"hi\\\"\\\\\\nbye\" eq=\"a=b\" accent=\"café\" control=\"\u{1}\"\n")
        let early = Logger.textLine(
            time: timespec(tv_sec: 946_684_799, tv_nsec: 999_000_000), level: .warning, label: "x", message: "m", fields: [])
        #expect(early == "time=1999-12-31T23:59:59.999Z level=warning component=x msg=m\n")
        #expect(Logger.quoted("a \"b\"") == "\"a \\\"b\\\"\"" && Logger.quoted("plain") == "plain")
    }

    @Test func durationsAreMillisecondsWithThreeDecimals() {
        #expect(AccessLog.milliseconds(0) == "0.000")
        #expect(AccessLog.milliseconds(1_234) == "1.234")
        #expect(AccessLog.milliseconds(56_007) == "56.007")
    }

    @Test func logFlagsAreParsed() throws {
        let options = try ServeOptions.parse(["--log-level", "warning", "--log-format=json", "--no-access-log", "--reuse-port"])
        #expect(options.logLevel == .warning && options.logFormat == .json && !options.accessLog && options.reusePort)
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--log-format", "xml"]) }
        #expect(throws: ServeOptionsError.self) { try ServeOptions.parse(["--log-level", "loud"]) }
    }
}
