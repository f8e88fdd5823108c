/// What a PostgreSQL search looks in and for: the rooms in scope with their room lexemes, and
/// the query's lexemes as `parley_search_words` made them (the same function as the messages').
struct PostgresSearchScope: Sendable {
    /// Whether the last lexeme matches as a prefix.
    var prefix: Bool
    var rooms: [String] = []
    /// `parley_search_room` of each room, in the order of ``rooms``.
    var roomLexemes: [String] = []
    var lexemes: [String] = []
    /// About how many messages the rooms hold (their last `seq`).
    var roomMessages = 0
    /// The planner's estimate of the messages of every room.
    var tableMessages = 0
    /// The share of the rooms' newest messages that matched, when the walk read some.
    var matchShare: Double?

    /// How many times cheaper the index finds a posting of a room lexeme than the table checks a
    /// row the index found for the words alone (measured: about 0.3 µs against 2 µs a row).
    static let roomPostingAdvantage = 6

    /// Whether the index query names the rooms. With them the index goes through every posting
    /// of the rooms' lexemes (about their messages); without them every match of the words in
    /// any room is read from the table and checked. The walk's share of matches, times all the
    /// messages, estimates the latter. Beyond ``SQLChatStore/searchRoomLexemeLimit`` rooms the
    /// alternatives cost the index more than they save.
    var listsRoomLexemes: Bool {
        guard rooms.count <= SQLChatStore.searchRoomLexemeLimit else { return false }
        guard let matchShare else { return true }
        let estimatedMatches = matchShare * Double(max(tableMessages, roomMessages))
        return estimatedMatches * Double(Self.roomPostingAdvantage) > Double(roomMessages)
    }

    /// The words alone as a tsquery: every lexeme AND-ed, the last one `:*` when a prefix.
    var wordQuery: String {
        lexemes.enumerated().map { index, lexeme in
            Self.quoted(lexeme) + (prefix && index == lexemes.count - 1 ? ":*" : "")
        }.joined(separator: " & ")
    }

    /// The query for the GIN index: the words and, when listed, any of the rooms' lexemes.
    var indexQuery: String {
        guard listsRoomLexemes else { return wordQuery }
        return wordQuery + " & ( " + roomLexemes.map(Self.quoted).joined(separator: " | ") + " )"
    }

    /// A lexeme as a tsquery operand: in single quotes, its quotes doubled and backslashes
    /// escaped, so no text can become an operator.
    static func quoted(_ lexeme: String) -> String {
        "'" + escaping(lexeme, ["\\": "\\\\", "'": "''"]) + "'"
    }

    /// `text` with each character found in `replacements` replaced.
    static func escaping(_ text: String, _ replacements: [Character: String]) -> String {
        var result = ""
        for character in text { result += replacements[character] ?? String(character) }
        return result
    }
}
