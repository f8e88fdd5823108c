/// What a PostgreSQL search looks in and for: the rooms in scope with their room lexemes, and
/// the query's lexemes as `parley_search_words` made them (the same function as the messages').
struct PostgresSearchScope: Sendable {
    /// Whether the last lexeme matches as a prefix.
    var prefix: Bool
    var rooms: [String] = []
    /// `parley_search_room` of each room, in the order of ``rooms``.
    var roomLexemes: [String] = []
    var lexemes: [String] = []

    /// Whether the index query names the rooms: beyond
    /// ``SQLChatStore/searchRoomLexemeLimit`` the alternatives cost the index more than they save.
    var listsRoomLexemes: Bool { rooms.count <= SQLChatStore.searchRoomLexemeLimit }

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
