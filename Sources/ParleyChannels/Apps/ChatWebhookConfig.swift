/// One chat webhook endpoint: where to POST and which event kinds it wants.
public struct ChatWebhookConfig: Sendable, Equatable {
    /// The endpoint (`http://host[:port]/path`).
    public var url: WebhookURL
    /// The event kinds delivered (`message.created`…); nil: all of them.
    public var eventKinds: Set<String>?

    /// Creates an endpoint.
    public init(url: WebhookURL, eventKinds: Set<String>? = nil) {
        self.url = url
        self.eventKinds = eventKinds
    }

    /// Whether events of this kind go to this endpoint.
    public func accepts(_ kind: String) -> Bool { eventKinds?.contains(kind) ?? true }

    /// Every chat webhook event kind. `user.flagged` is sent by the moderation code when a
    /// message or user is flagged for review.
    public static let knownKinds: [String] = [
        "message.created", "message.updated", "message.deleted", "reaction.added", "reaction.removed",
        "member.added", "member.removed", "room.created", "room.updated", "room.deleted", "user.flagged"
    ]
}
