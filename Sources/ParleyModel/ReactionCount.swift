import ParleyWireCore

/// How many users reacted to a message with one emoji.
public struct ReactionCount: Sendable, Hashable, Codable {
    /// The reaction (an emoji or short name).
    public var emoji: String
    /// How many distinct users chose it.
    public var count: Int

    /// Creates a count.
    public init(emoji: String, count: Int) {
        self.emoji = emoji
        self.count = count
    }

    /// Reads `{"emoji":…,"count":…}`.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "reaction")
        self.init(emoji: try r.string("emoji"), count: try r.int("count"))
    }

    /// The API's form.
    public var json: JSONValue { .object(["emoji": .string(emoji), "count": .int(count)]) }

    /// Reads a list of counts; one unreadable count fails the list.
    public static func list(_ values: [JSONValue]) throws(ParleyError) -> [ReactionCount] {
        var counts: [ReactionCount] = []
        counts.reserveCapacity(values.count)
        for value in values { counts.append(try ReactionCount(json: value)) }
        return counts
    }

    /// The API's form of a list of counts.
    public static func json(_ counts: [ReactionCount]) -> JSONValue { .array(counts.map(\.json)) }
}
