/// One Pusher app hosted by the server: credentials, switches, webhooks and limits.
public struct AppConfig: Sendable, Equatable {
    /// The app id used in HTTP API paths (`/apps/{id}/...`); digits for the server libraries.
    public var id: String
    /// The public key clients connect with (`/app/{key}`).
    public var key: String
    /// Every secret the app accepts, the signing one first: signatures and tokens made with
    /// any of them verify, and the server signs (webhooks, auth it issues, tokens it mints)
    /// with the first. Several during a rotation; never empty.
    public var secrets: [String]
    /// The secret that signs everything the server signs (the first of ``secrets``).
    public var secret: String {
        get { secrets[0] }
        set { secrets[0] = newValue }
    }
    /// Whether the app accepts connections and API calls (4003 / 403 when not).
    public var enabled: Bool = true
    /// Whether clients may send `client-` events.
    public var clientEvents: Bool = false
    /// Whether clients may sign in (`pusher:signin`).
    public var userAuthentication: Bool = false
    /// Whether subscribers get `pusher_internal:subscription_count`.
    public var subscriptionCount: Bool = false
    /// Webhook endpoints.
    public var webhooks: [WebhookConfig] = []
    /// Limits.
    public var limits = AppLimits()
    /// Web origins (`https://app.example.com`) whose pages may call the chat REST API and
    /// auth endpoints for this app from a browser (CORS), normalised; empty: none.
    public var corsOrigins: [String] = []
    /// Chat webhooks, the before-send hook and the notification hook.
    public var chatHooks = ChatHooksConfig()
    /// Content rules for the chat: blocked words (`moderation`).
    public var moderation = AppModeration()

    /// Creates an app with the given credentials and defaults for everything else.
    public init(id: String, key: String, secret: String) {
        self.id = id
        self.key = key
        self.secrets = [secret]
    }

    /// The app `parley serve --dev` runs: id `1`, key `dev-key`, secret `dev-secret`,
    /// client events and user authentication on.
    public static var development: AppConfig {
        var app = AppConfig(id: "1", key: "dev-key", secret: "dev-secret")
        app.clientEvents = true
        app.userAuthentication = true
        return app
    }
}
