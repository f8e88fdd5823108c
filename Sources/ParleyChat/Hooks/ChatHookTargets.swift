import ParleyChannels

/// Who signs an outbox row's request: the app as the live registry has it now (a reload may
/// have rotated its secret), provided the row's endpoint is still one of its chat webhooks or
/// its notification hook.
enum ChatHookTargets {
    /// The target for an app and endpoint address; nil when either is no longer configured.
    static func resolve(_ apps: AppRegistry, appID: String, url: String) -> ChatHookQueue.Target? {
        guard let app = apps.app(id: appID) else { return nil }
        let hooks = app.chatHooks
        let urls = hooks.webhooks.map(\.url) + (hooks.notifications.map { [$0.url] } ?? [])
        guard let match = urls.first(where: { $0.description == url }) else { return nil }
        return ChatHookQueue.Target(appID: app.id, key: app.key, secret: app.secret, url: match)
    }

    /// Whether any app delivers chat hooks at all (else the outbox need not be polled).
    static func anyConfigured(_ apps: AppRegistry) -> Bool {
        apps.apps.contains { !$0.chatHooks.webhooks.isEmpty || $0.chatHooks.notifications != nil }
    }
}
