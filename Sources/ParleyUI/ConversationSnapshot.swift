import ParleyKit

/// Everything a conversation screen shows, as one value.
public struct ConversationSnapshot: Sendable, Equatable {
    /// The room.
    public var roomID: String
    /// The title: the room's name, or the direct partner's name.
    public var title: String
    /// The direct partner's presence, for "online" in the title.
    public var partnerPresence: PresenceStatus?
    /// Day separators and messages, oldest first (a screen may draw them inverted).
    public var items: [ConversationItem]
    /// "bob is typing…", or nil.
    public var typingLine: String?
    /// A banner while not online ("Offline: …", "Reconnecting in 2 s…"), or nil.
    public var banner: String?
    /// The connection state behind the banner.
    public var connection: ConnectionState
    /// The composer.
    public var composer: ComposerState
    /// Whether older history exists beyond the first item.
    public var hasOlder: Bool
    /// The last intent's failure, for a transient notice.
    public var notice: String?

    /// The message rows only.
    public var messages: [MessageRow] { items.compactMap(\.message) }
}
