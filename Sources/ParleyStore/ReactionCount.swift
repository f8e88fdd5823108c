/// How many users reacted to a message with one emoji.
public struct ReactionCount: Sendable, Hashable {
    /// The reaction (an emoji or short name).
    public var emoji: String
    /// How many distinct users reacted with it.
    public var count: Int

    /// Creates a value.
    public init(emoji: String, count: Int) {
        self.emoji = emoji
        self.count = count
    }
}
