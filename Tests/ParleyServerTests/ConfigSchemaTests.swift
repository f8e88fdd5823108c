import Foundation
import Testing

@testable import ParleyServer

@Suite struct ConfigSchemaTests {
    private func check(_ text: String) -> [ConfigProblem] {
        ConfigFile(path: "apps.json", bytes: Array(text.utf8)).problems
    }

    @Test func aMisspeltKeyNamesTheNearestOneWithItsLineAndColumn() {
        let problems = check(
            """
            {
              "apps": [{"id": "1", "key": "k", "secret": "s",
                        "limits": {
                          "max_connectionz": 10}}]
            }
            """)
        #expect(
            problems.map(\.description) == [
                #"line 4, column 15: $.apps[0].limits.max_connectionz: unknown setting; did you mean "max_connections"?"#
            ])
    }

    @Test func aKeyInTheWrongSectionSaysWhereItBelongs() {
        let problems = check(#"{"apps": [{"id": "1", "key": "k", "secret": "s"}], "head_timeout": 5}"#)
        #expect(problems.count == 1)
        #expect(problems[0].path == "$.head_timeout")
        #expect(problems[0].message == #"unknown setting here; "head_timeout" belongs in $.http"#)
        #expect(problems[0].position == ConfigSourcePosition(line: 1, column: 52))
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let problems = check(
            """
            {"apps": [{"id": "1", "key": "k", "secret": "s", "client_event": true},
                      {"id": "2", "secret": "s2"}],
             "http": {"max_connections": "many"},
             "pong_timeout": 0}
            """)
        #expect(problems.map(\.path) == ["$.apps[0].client_event", "$.apps[1].key", "$.http.max_connections", "$.pong_timeout"])
        #expect(problems[1].message == "is required")
        #expect(problems[1].position == ConfigSourcePosition(line: 2, column: 11))
        #expect(problems[3].message == "must be an integer in 1...600")
    }

    @Test func aSyntaxErrorGivesLineAndColumn() {
        let problems = check("{\n  \"apps\": [\n    {\"id\": \"1\",}\n  ]\n}\n")
        #expect(problems.map(\.description) == ["line 3, column 16: $: not valid JSON (unexpected_byte)"])
    }

    @Test func aValidFileHasNoProblems() {
        let file = """
            {"apps": [{"id": 7, "key": "k", "secret": "s", "enabled": true, "webhooks": [{"url": "http://127.0.0.1/h",
              "event_types": ["member_added"], "filter": {"channel_name_starts_with": "presence-"}}],
              "limits": {"max_watchlist": 5}, "cors_origins": ["https://a.example"]}],
             "activity_timeout": 60, "http": {"limit_loopback": true}, "tls": null, "metrics_token": "t"}
            """
        #expect(check(file).isEmpty)
    }

    @Test func everyLimitTheAppReaderTakesIsInTheTable() {
        let file = """
            {"apps": [{"id": "1", "key": "k", "secret": "s", "limits": {
              "max_channels_per_connection": 200, "max_reactions_per_message": 10, "attachment_quota_bytes": 0,
              "document_backlog_bytes": 1048576, "document_backlog_messages": 32,
              "rates": {"messages": {"per_second": 0.5, "burst": 3}, "typing": {"per_second": 0}}}}]}
            """
        #expect(check(file).isEmpty)
    }

    @Test func aRateIsCheckedByKindAndByValue() {
        let problems = check(
            """
            {"apps": [{"id": "1", "key": "k", "secret": "s", "limits": {"rates": {
              "mesages": {"per_second": 1}, "uploads": {"per_second": -1, "burts": 2}}}}]}
            """)
        #expect(problems.count == 3)
        #expect(problems.first { $0.path.hasSuffix("mesages") }?.message == #"unknown setting; did you mean "messages"?"#)
        #expect(problems.first { $0.path.hasSuffix("per_second") }?.message == "must be a number in 0...1000000")
        #expect(problems.first { $0.path.hasSuffix("burts") }?.message == "unknown setting (known here: per_second, burst)")
    }

    @Test func nearestNeedsARealResemblance() {
        #expect(ConfigSchema.nearest("max_connectionz", among: ["max_connections", "max_watchlist"]) == "max_connections")
        #expect(ConfigSchema.nearest("colour", among: ["key", "secret"]) == nil)
        #expect(ConfigSchema.editDistance("kitten", "sitting") == 3)
    }

    /// The reference page is generated from the table; regenerate it with
    /// `parley check-config --print-reference > docs/configuration.md` when this fails.
    @Test func theReferencePageMatchesTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        #expect(page == ConfigSchema.referenceMarkdown)
        for key in ConfigSchema.root + ConfigSchema.app + ConfigSchema.limits + ConfigSchema.http {
            #expect(page.contains("| `\(key.name)` |"))
        }
    }
}
