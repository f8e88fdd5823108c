/// Which page of a room's history to read. Pages always come back in ascending seq order.
///
/// With neither bound: the latest `limit` messages. With `before`: the `limit` messages just
/// before that seq. With `after`: the `limit` messages just after it (bounded by `before` if set).
public struct HistoryQuery: Sendable, Hashable {
    /// Only messages with a seq lower than this.
    public var before: Int64?
    /// Only messages with a seq higher than this; the page then starts right after it.
    public var after: Int64?
    /// The most messages to return (clamped to 1…`StoreLimits.historyPage`).
    public var limit: Int

    /// Describes a history page.
    public init(before: Int64? = nil, after: Int64? = nil, limit: Int = 50) {
        self.before = before
        self.after = after
        self.limit = limit
    }

    /// The latest `limit` messages.
    public static func latest(_ limit: Int = 50) -> HistoryQuery {
        HistoryQuery(limit: limit)
    }
}
