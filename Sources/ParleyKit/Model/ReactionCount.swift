import ParleyWireCore

/// How many users reacted to a message with one emoji.
public struct ReactionCount: Sendable, Hashable, Codable {
    /// The reaction.
    public var emoji: String
    /// How many users chose it.
    public var count: Int

    /// Creates a count.
    public init(emoji: String, count: Int) {
        self.emoji = emoji
        self.count = count
    }

    package static func list(_ value: JSONValue?) -> [ReactionCount] {
        (value?.arrayValue ?? []).compactMap { item in
            guard let emoji = item["emoji"]?.stringValue, let count = item["count"]?.intValue else { return nil }
            return ReactionCount(emoji: emoji, count: count)
        }
    }

    package static func json(_ counts: [ReactionCount]) -> JSONValue {
        .array(counts.map { .object(["emoji": .string($0.emoji), "count": .int($0.count)]) })
    }
}
