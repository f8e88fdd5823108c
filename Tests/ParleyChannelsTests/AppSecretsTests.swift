import ParleyChannels
import ParleyWire
import Testing

@Suite struct AppSecretsTests {
    private func app(_ json: String) throws -> AppConfig {
        try ChannelsConfig.parse(Array(#"{"apps": [{"id": "1", "key": "k", \#(json)}]}"#.utf8)).apps[0]
    }

    @Test func secretComesFirstThenSecretsWithoutDuplicates() throws {
        #expect(try app(#""secret": "new", "secrets": ["old", "new", "older"]"#).secrets == ["new", "old", "older"])
        #expect(try app(#""secrets": ["only"]"#).secret == "only")
        #expect(try app(#""secret": "s""#).secrets == ["s"])
    }

    @Test func aSecretIsRequiredAndNoneMayBeEmpty() {
        #expect(throws: ChannelsConfigError("$.apps[0].secret", "is required (or a non-empty secrets array)")) {
            try app(#""secrets": []"#)
        }
        #expect(throws: ChannelsConfigError("$.apps[0].secrets[1]", "must be a non-empty string")) {
            try app(#""secret": "s", "secrets": ["a", ""]"#)
        }
    }

    @Test func anySecretVerifiesAndTheFirstFailureIsReported() throws {
        let rotated = try app(#""secret": "new", "secrets": ["old"]"#)
        let auth = PusherSignature.channelAuth(key: "k", secret: "old", socketID: "1.2", channel: "private-a")
        #expect(
            rotated.acceptsAnySecret {
                PusherSignature.verifyChannelAuth(auth, key: "k", secret: $0, socketID: "1.2", channel: "private-a", channelData: nil)
            })
        #expect(
            !rotated.acceptsAnySecret {
                PusherSignature.verifyChannelAuth(auth, key: "k", secret: $0, socketID: "1.3", channel: "private-a", channelData: nil)
            })
        #expect(rotated.failureWithEverySecret { $0 == "old" ? nil : "bad \($0)" } == nil)
        #expect(rotated.failureWithEverySecret { "bad \($0)" } == "bad new")
    }

    @Test func aRegistryReplacementIsSeenByLookupsAndCountsAGeneration() throws {
        let registry = AppRegistry(
            ChannelsConfig(apps: [AppConfig(id: "1", key: "a", secret: "s"), AppConfig(id: "2", key: "b", secret: "s")]))
        #expect(registry.generation == 0)
        var one = AppConfig(id: "1", key: "a", secret: "s")
        one.secrets.append("t")
        let changes = registry.replace(with: ChannelsConfig(apps: [one, AppConfig(id: "3", key: "c", secret: "s")]))
        #expect(changes == AppChanges(added: ["3"], removed: ["2"], changed: ["1"]))
        #expect(registry.generation == 1)
        #expect(registry.app(key: "a")?.secrets == ["s", "t"])
        #expect(registry.app(id: "2") == nil && registry.app(key: "c")?.id == "3")
    }
}
