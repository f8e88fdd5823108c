import Testing

@testable import ParleyChat
@testable import ParleyServer
@testable import ParleyWire

/// The config file's `"thumbnails"` object: read into the chat service's limits, and every bad
/// value refused with its path, both by `parley serve` and by `parley check-config`.
@Suite struct ThumbnailOptionsTests {
    private func options(_ text: String) throws -> ThumbnailOptions {
        try ThumbnailOptions(configFile: try JSONParser.parse(Array(text.utf8)))
    }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try options(text)
            return nil
        } catch let error as ServerStartError {
            #expect(error.code == "config_invalid")
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func absentOrNullKeepsTheChatServiceDefaults() throws {
        let defaults = ChatLimits()
        for text in [#"{"apps": []}"#, #"{"thumbnails": null}"#, #"{"thumbnails": {}}"#] {
            var options = ServeOptions()
            options.thumbnails = try self.options(text)
            let limits = options.chatLimits
            #expect(limits.thumbnails == defaults.thumbnails && defaults.thumbnails)
            #expect(limits.thumbnailSide == 320 && limits.thumbnailMaxPixels == 40_000_000 && limits.thumbnailQuality == 80)
        }
    }

    @Test func everyKeyReachesTheChatServiceLimits() throws {
        var options = ServeOptions()
        options.thumbnails = try self.options(
            #"{"thumbnails": {"enabled": false, "max_side": 96, "max_source_pixels": 1000000, "jpeg_quality": 55}}"#)
        let limits = options.chatLimits
        #expect(!limits.thumbnails)
        #expect(limits.thumbnailSide == 96 && limits.thumbnailMaxPixels == 1_000_000 && limits.thumbnailQuality == 55)
    }

    @Test func badValuesAreRefusedWithTheirPath() {
        #expect(refusal(#"{"thumbnails": {"max_side": 8}}"#) == "$.thumbnails.max_side must be an integer in 16...4096")
        #expect(refusal(#"{"thumbnails": {"max_side": 5000}}"#) == "$.thumbnails.max_side must be an integer in 16...4096")
        #expect(
            refusal(#"{"thumbnails": {"max_source_pixels": 0}}"#) == "$.thumbnails.max_source_pixels must be an integer in 1...100000000")
        #expect(refusal(#"{"thumbnails": {"jpeg_quality": 101}}"#) == "$.thumbnails.jpeg_quality must be an integer in 1...100")
        #expect(refusal(#"{"thumbnails": {"jpeg_quality": 50.5}}"#) == "$.thumbnails.jpeg_quality must be an integer in 1...100")
        #expect(refusal(#"{"thumbnails": {"enabled": "yes"}}"#) == "$.thumbnails.enabled must be true or false")
        #expect(refusal(#"{"thumbnails": true}"#) == "$.thumbnails must be an object")
        #expect(refusal(#"{"thumbnails": {"quality": 50}}"#)?.hasPrefix("$.thumbnails.quality unknown setting") == true)
    }

    @Test func checkConfigReportsEveryBadThumbnailSettingWithItsLine() {
        let text = """
            {"apps": [{"id": "1", "key": "k", "secret": "s"}],
             "thumbnails": {"enabled": "yes", "max_side": 0,
                            "max_source_pixels": -1, "jpeg_quality": 0, "max_sied": 64}}
            """
        let problems = ConfigFile(path: "apps.json", bytes: Array(text.utf8)).problems
        #expect(
            Set(problems.map(\.description)) == [
                "line 2, column 17: $.thumbnails.enabled: must be true or false",
                "line 2, column 35: $.thumbnails.max_side: must be an integer in 16...4096",
                "line 3, column 17: $.thumbnails.max_source_pixels: must be an integer in 1...100000000",
                "line 3, column 42: $.thumbnails.jpeg_quality: must be an integer in 1...100",
                #"line 3, column 61: $.thumbnails.max_sied: unknown setting; did you mean "max_side"?"#
            ])
        let valid = #"{"apps": [{"id": "1", "key": "k", "secret": "s"}], "thumbnails": {"enabled": true, "max_side": 4096}}"#
        #expect(ConfigFile(path: "apps.json", bytes: Array(valid.utf8)).problems.isEmpty)
    }
}
