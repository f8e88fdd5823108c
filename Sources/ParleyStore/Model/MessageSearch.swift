/// A full-text search over messages: what to look for, where, and which page.
///
/// The query's whitespace-separated terms must all match (a term that cuts into several
/// words — `東京`, `e-mail` — matches them as a phrase); see `SearchTokenizer` for the words.
public struct MessageSearch: Sendable, Hashable {
    /// The query text.
    public var text: String
    /// Search only the rooms this user is a member of (nil: every room of the app, for app calls).
    public var user: String?
    /// Search only this room (nil: every room in scope).
    public var room: String?
    /// How many of the best hits to skip.
    public var offset: Int
    /// The most hits to return.
    public var limit: Int

    /// Describes a search.
    public init(text: String, user: String? = nil, room: String? = nil, offset: Int = 0, limit: Int = 20) {
        self.text = text
        self.user = user
        self.room = room
        self.offset = offset
        self.limit = limit
    }
}
