/// The chat hooks of one app: where chat events are delivered, the endpoint asked before each
/// message is stored, and the endpoint told which members need a push notification.
public struct ChatHooksConfig: Sendable, Equatable {
    /// Endpoints receiving signed, batched chat events (`chat_webhooks`).
    public var webhooks: [ChatWebhookConfig] = []
    /// The endpoint asked before a message is stored (`before_send`).
    public var beforeSend: BeforeSendConfig?
    /// The endpoint told about members who need a notification (`notification_hook`).
    public var notifications: NotificationHookConfig?

    /// Creates a configuration without hooks.
    public init(webhooks: [ChatWebhookConfig] = [], beforeSend: BeforeSendConfig? = nil, notifications: NotificationHookConfig? = nil) {
        self.webhooks = webhooks
        self.beforeSend = beforeSend
        self.notifications = notifications
    }

    /// Whether any hook is configured.
    public var isEmpty: Bool { webhooks.isEmpty && beforeSend == nil && notifications == nil }
}
