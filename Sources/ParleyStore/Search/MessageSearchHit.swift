/// One message a search found, with its rank.
public struct MessageSearchHit: Sendable, Hashable {
    /// The message as history shows it now (its current parts, reactions included).
    public var message: Message
    /// Its BM25 relevance among the page's candidates: larger is better; comparable only within one search.
    public var score: Double

    /// A hit for `message` with `score`.
    public init(message: Message, score: Double) {
        self.message = message
        self.score = score
    }
}
