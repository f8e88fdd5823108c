/// The composer: the draft and its character budget.
public struct ComposerState: Sendable, Equatable {
    /// The text being written.
    public var draft: String
    /// The most characters a message may have.
    public var limit: Int

    /// Creates a composer state.
    public init(draft: String = "", limit: Int = 256) {
        self.draft = draft
        self.limit = limit
    }

    /// Characters used (grapheme clusters, as people count them).
    public var count: Int { draft.count }
    /// Characters left; negative when over the limit.
    public var remaining: Int { limit - count }
    /// Whether the draft is longer than allowed.
    public var isOverLimit: Bool { count > limit }
    /// The counter as shown: `used/limit`.
    public var counterText: String { "\(count)/\(limit)" }
    /// Whether the send intent would do anything.
    public var canSend: Bool { !isOverLimit && draft.contains { !$0.isWhitespace } }
}
