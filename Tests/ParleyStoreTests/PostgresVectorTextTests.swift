import Testing

@testable import ParleyStore

/// A search's candidates are scored from their vectors' text: the reading must count what
/// PostgreSQL's own `unnest` of the vector counts, for any lexeme it can write.
@Suite struct PostgresVectorTextTests {
    @Test func positionsAreCountedPerLexemeAndInAll() {
        let vector = PostgresVectorText("'0123abcdplum':1,4 '0123abcdpear':2 '0123abcdpeach':3,5,6")
        #expect(vector.entries.map(\.positions) == [2, 1, 3])
        #expect(vector.length == 6)
        #expect(vector.frequencies(of: ["plum", "pear"], tagBytes: 8, lastIsPrefix: false) == [2, 1])
        #expect(vector.frequencies(of: ["plum", "pea"], tagBytes: 8, lastIsPrefix: true) == [2, 4])
        #expect(vector.frequencies(of: ["pea", "plum"], tagBytes: 8, lastIsPrefix: true) == [0, 2], "only the last word is a prefix")
        #expect(vector.frequencies(of: ["0123"], tagBytes: 8, lastIsPrefix: true) == [0], "the tag is not part of the word")
    }

    @Test func quotesBackslashesWeightsAndBareLexemesAreRead() {
        let vector = PostgresVectorText(#"'it''s':1A,2 'back\\slash':3B 'bare' 'q\'x':4"#)
        #expect(vector.entries.map { String(decoding: $0.lexeme, as: UTF8.self) } == ["it's", #"back\slash"#, "bare", "q'x"])
        #expect(vector.entries.map(\.positions) == [2, 1, 0, 1])
    }

    @Test func nothingOrAMalformedTailEndsTheReading() {
        #expect(PostgresVectorText("").entries.isEmpty)
        #expect(PostgresVectorText("'ok':1 'unterminated").entries.map(\.positions) == [1])
        #expect(PostgresVectorText("'ok':1 garbage 'more':2").entries.count == 1)
    }

    /// Messages with repeated, quoted, accented, CJK and emoji words, each vector as the trigger
    /// made it: the Swift reading gives PostgreSQL's counts for every query, prefix or not.
    @Test func theCountsAreThoseOfPostgresUnnest() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let texts = [
                "plum plum pear, plum's pearl", #"back\slash 'quoted' o''brien"#, "Crème brûlée crème", "東京 タワー 東京",
                "👍 👍🏽 thumbs 👍", String(repeating: "long ", count: 300) + "tail"
            ]
            let queries: [(words: String, prefix: Bool)] = [
                ("plum", false), ("pear", true), ("plum pear", true), ("crème", false), ("brû", true),
                ("東京", false), ("👍", false), ("long", false), ("ta", true), (#"back\slash"#, false), ("quoted", false)
            ]
            for text in texts { try await store.send("a", room.id, from: "alice", text) }
            try await store.database.read { context in
                let vectors = try context.query("SELECT search::text FROM messages WHERE room_id = $1 ORDER BY id", [.text(room.id)]) {
                    $0.text(0)
                }
                #expect(vectors.count == texts.count)
                for query in queries {
                    let words = try context.queryFirst("SELECT array_to_string(parley_search_words($1), ' ')", [.text(query.words)]) {
                        $0.text(0)
                    }
                    let lexemes = (words ?? "").split(separator: " ").map(String.init)
                    #expect(!lexemes.isEmpty, "\(query.words) has words")
                    for vector in vectors {
                        let expected = try Self.countsByUnnest(context, vector: vector, lexemes: lexemes, prefix: query.prefix)
                        let read = PostgresVectorText(vector)
                        #expect(read.length == expected.length, "\(vector)")
                        #expect(
                            read.frequencies(of: lexemes, tagBytes: SQLChatStore.searchTagLength, lastIsPrefix: query.prefix)
                                == expected.frequencies, "\(query.words) in \(vector)")
                    }
                }
            }
        }
    }

    /// The counts as SQL gives them: each lexeme of the vector without its tag, its positions summed.
    private static func countsByUnnest(
        _ context: SQLContext, vector: String, lexemes: [String], prefix: Bool
    ) throws -> (length: Int, frequencies: [Int]) {
        let row = try context.queryFirst(
            """
            SELECT (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest($1::tsvector) AS u),
                array_to_string(ARRAY(
                    SELECT (SELECT coalesce(sum(cardinality(u.positions)), 0)
                            FROM unnest($1::tsvector) AS u, LATERAL (SELECT substr(u.lexeme, \(SQLChatStore.searchTagLength + 1))) AS w(word)
                            WHERE w.word = t.lexeme OR ($3::boolean AND t.n = cardinality($2::text[]) AND starts_with(w.word, t.lexeme)))
                    FROM unnest($2::text[]) WITH ORDINALITY AS t(lexeme, n) ORDER BY t.n), ' ')
            """, [.text(vector), .text(SQLChatStore.postgresArray(lexemes)), .text(prefix ? "true" : "false")]
        ) { (length: $0.int(0), frequencies: SQLChatStore.integers($0.text(1))) }
        return try #require(row)
    }
}
