/// What a message search asks for: words every match contains, where to look, which page.
public struct MessageSearchQuery: Sendable, Hashable {
    /// The most matches ranked per search: the newest this many matches in scope.
    public static let candidateLimit = 200

    /// The words every match must contain, as ``SearchTokenizer/words(in:)`` cuts them; at least one.
    public var words: [String]
    /// Whether the last word also matches the words it begins ("hel" finds "hello"), as when
    /// someone is still typing it.
    public var lastWordIsPrefix: Bool
    /// Only this room, or nil for every room the caller is a member of.
    public var room: String?
    /// The most hits in the page.
    public var limit: Int
    /// How many ranked hits to pass over (the page's start); at most ``candidateLimit``.
    public var offset: Int

    /// A search for `words`, the first page of `limit` hits over all of the caller's rooms unless `room` is set.
    public init(words: [String], lastWordIsPrefix: Bool = false, room: String? = nil, limit: Int = 20, offset: Int = 0) {
        self.words = words
        self.lastWordIsPrefix = lastWordIsPrefix
        self.room = room
        self.limit = limit
        self.offset = offset
    }
}
