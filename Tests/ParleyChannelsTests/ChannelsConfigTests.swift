import ParleyWire
import Testing

@testable import ParleyChannels

@Suite struct ChannelsConfigTests {
    @Test func parsesAFullConfig() throws {
        let text = """
            {"activity_timeout": 60, "max_outbound_bytes": 65536,
             "apps": [{"id": "7", "key": "k7", "secret": "s7", "client_events": true, "subscription_count": true,
                       "webhooks": [{"url": "http://127.0.0.1:9000/hook", "event_types": ["member_added", "channel_vacated"],
                                     "filter": {"channel_name_starts_with": "presence-"}}],
                       "limits": {"max_connections": 10, "max_event_bytes": 2048, "client_events_per_second": 5}},
                      {"id": 8, "key": "k8", "secret": "s8", "enabled": false}]}
            """
        let config = try ChannelsConfig.parse(Array(text.utf8))
        #expect(config.activityTimeout == 60 && config.maxOutboundBytes == 65536)
        let app = config.apps[0]
        #expect(app.clientEvents && app.subscriptionCount && !app.userAuthentication && app.enabled)
        #expect(app.webhooks.first?.eventKinds == [.memberAdded, .channelVacated])
        #expect(app.webhooks.first?.channelPrefix == "presence-")
        #expect(app.limits.maxConnections == 10 && app.limits.maxEventBytes == 2048 && app.limits.clientEventsPerSecond == 5)
        #expect(app.limits.maxPresenceMembers == 100)
        #expect(config.apps[1].id == "8" && !config.apps[1].enabled)
        let registry = AppRegistry(config)
        #expect(registry.app(key: "k8")?.id == "8" && registry.app(id: "7")?.key == "k7" && registry.app(key: "nope") == nil)
    }

    @Test func developmentApp() {
        let dev = ChannelsConfig.development.apps[0]
        #expect(dev.id == "1" && dev.key == "dev-key" && dev.secret == "dev-secret" && dev.clientEvents && dev.userAuthentication)
    }

    @Test(arguments: [
        (#"{"apps": []}"#, "$.apps"),
        (#"{}"#, "$.apps"),
        (#"{"apps": [{"id": "1", "key": "k"}]}"#, "$.apps[0].secret"),
        (#"{"apps": [{"id": "abc", "key": "k", "secret": "s"}]}"#, "$.apps[0].id"),
        (#"{"apps": [{"id": "1", "key": "k k", "secret": "s"}]}"#, "$.apps[0].key"),
        (#"{"apps": [{"id": "1", "key": "k", "secret": "s"}, {"id": "1", "key": "j", "secret": "s"}]}"#, "$.apps[1].id"),
        (#"{"apps": [{"id": "1", "key": "k", "secret": "s"}, {"id": "2", "key": "k", "secret": "s"}]}"#, "$.apps[1].key"),
        (#"{"apps": [{"id": "1", "key": "k", "secret": "s", "webhooks": [{"url": "https://x/"}]}]}"#, "$.apps[0].webhooks[0].url"),
        (
            #"{"apps": [{"id": "1", "key": "k", "secret": "s", "webhooks": [{"url": "http://x/", "event_types": ["nope"]}]}]}"#,
            "$.apps[0].webhooks[0].event_types[0]"
        ),
        (#"{"apps": [{"id": "1", "key": "k", "secret": "s", "limits": {"max_event_bytes": -1}}]}"#, "$.apps[0].limits.max_event_bytes"),
        (#"{"apps": [{"id": "1", "key": "k", "secret": "s", "enabled": "yes"}]}"#, "$.apps[0].enabled"),
        (#"{"activity_timeout": 0, "apps": [{"id": "1", "key": "k", "secret": "s"}]}"#, "$.activity_timeout"),
        ("{not json", "$")
    ])
    func rejectsWithAPath(text: String, path: String) {
        do {
            _ = try ChannelsConfig.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }
}
