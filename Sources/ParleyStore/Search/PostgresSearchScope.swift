/// What a PostgreSQL search looks in and for: the rooms in scope with their tags, and the
/// query's lexemes as `parley_search_words` made them (the same function as the messages').
struct PostgresSearchScope: Sendable {
    /// Whether the last lexeme matches as a prefix.
    var prefix: Bool
    var rooms: [String] = []
    /// `parley_search_tag` of each room, in the order of ``rooms``: the messages' lexemes are
    /// their words behind it (migration 16).
    var roomTags: [String] = []
    var lexemes: [String] = []
    /// About how many messages the rooms hold (their last `seq`).
    var roomMessages = 0

    /// ``lexemes`` without repeats, in their order (a word asked for twice is one posting).
    var distinctLexemes: [String] {
        var seen = Set<String>()
        return lexemes.filter { seen.insert($0).inserted }
    }

    /// The words in one room as a tsquery: every lexeme behind the room's tag, AND-ed, the last
    /// one `:*` when a prefix.
    func roomQuery(_ tag: String) -> String {
        lexemes.enumerated().map { index, lexeme in
            Self.quoted(tag + lexeme) + (prefix && index == lexemes.count - 1 ? ":*" : "")
        }.joined(separator: " & ")
    }

    /// ``roomQuery(_:)`` of each room, in the order of ``rooms``: what the walk and the index
    /// ask of each room. Its postings are the room's own, so the index reads nothing out of
    /// scope (but for rooms sharing a tag).
    var roomQueries: [String] { roomTags.map(roomQuery) }

    /// A lexeme as a tsquery operand: in single quotes, its quotes doubled and backslashes
    /// escaped, so no text can become an operator.
    static func quoted(_ lexeme: String) -> String {
        "'" + escaping(lexeme, ["\\": "\\\\", "'": "''"]) + "'"
    }

    /// `text` with each ASCII character found in `replacements` replaced; `text` itself when it
    /// holds none (nearly always: a search escapes every room id and query it sends).
    static func escaping(_ text: String, _ replacements: KeyValuePairs<Unicode.Scalar, String>) -> String {
        let special = replacements.map { UInt8(ascii: $0.key) }
        guard text.utf8.contains(where: { special.contains($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if let replacement = replacements.first(where: { $0.key == scalar })?.value {
                result += replacement
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
