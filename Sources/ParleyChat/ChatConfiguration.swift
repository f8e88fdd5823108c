import ParleyChannels

/// How a chat service is set up: the apps it serves, where files go, and its switches.
public struct ChatConfiguration: Sendable {
    /// The apps (from the channels configuration); each one's data is isolated by its id.
    public var apps: [AppConfig]
    /// The data directory; attachments live under `attachments/{app}/{id}` in it.
    public var dataDirectory: String
    /// Whether `POST /v1/dev/users` and `POST /v1/dev/token` exist (`parley serve --dev`).
    public var devMode: Bool
    /// Limits and lifetimes.
    public var limits: ChatLimits
    /// Decides channels that are not the chat's own (`private-doc-{id}` of the documents
    /// service, say) for `POST /v1/channels/auth`; nil refuses them all.
    public var otherChannels: (@Sendable (_ app: String, _ user: String, _ channel: String) async -> ChannelAuthorization)?
    /// Channels a socket may subscribe to only with a live grant from `POST /v1/channels/auth`
    /// (by name prefix), so that ending a membership withdraws signatures given before; see
    /// `ChatService.guardSubscriptions(on:)`. Add the prefixes of `otherChannels` you decide.
    public var guardedChannelPrefixes: [String] = [ChatEvent.roomChannel("")]
    /// Reads room documents for `GET /v1/rooms/{room_id}/docs/{name}` and `…/update`; nil:
    /// no room has documents (both answer `document_not_found`).
    public var roomDocuments: (any RoomDocumentReader)?
    /// Sends the chat hooks' requests (chat webhooks, before-send, notifications); nil: every
    /// hook request fails at once (before-send then follows its `on_failure`).
    public var hookPoster: (any ChatHookPoster)?
    /// Batching, retry and bounds of chat webhook and notification deliveries.
    public var hookQueue = ChatHookQueue()
    /// Where the chat hooks count for `/metrics`.
    public var hookStatistics = ChatHookStatistics()

    /// Creates a configuration.
    public init(
        apps: [AppConfig], dataDirectory: String, devMode: Bool = false, limits: ChatLimits = ChatLimits(),
        otherChannels: (@Sendable (_ app: String, _ user: String, _ channel: String) async -> ChannelAuthorization)? = nil
    ) {
        self.apps = apps
        self.dataDirectory = dataDirectory
        self.devMode = devMode
        self.limits = limits
        self.otherChannels = otherChannels
    }
}
