import ParleyStore
import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Search query rules and highlights")
struct SearchQueryTests {
    func query(_ q: String?, limit: String? = nil, offset: String? = nil) throws(ChatError) -> MessageSearchQuery {
        try ChatService.searchQuery(q: q, limit: limit, offset: offset, room: nil)
    }

    func refusal(_ q: String?, limit: String? = nil, offset: String? = nil) -> ChatErrorCode? {
        do {
            _ = try query(q, limit: limit, offset: offset)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func wordsAreCutAsTheIndexCutsThem() throws {
        let parsed = try query("  Café, DÉJÀ-vu 👍🏽 ")
        #expect(parsed.words == ["cafe", "deja", "vu", "u1f44d"])
        #expect(parsed.limit == 20 && parsed.offset == 0 && parsed.room == nil)
    }

    @Test func theLastWordIsAPrefixWhileItIsBeingTyped() throws {
        #expect(try query("hello wor").lastWordIsPrefix)
        #expect(try !query("hello wor ").lastWordIsPrefix, "a trailing space ends the word")
        #expect(try !query("hello wo").lastWordIsPrefix, "two characters are too few to be a prefix")
        #expect(try query("wor").lastWordIsPrefix)
    }

    @Test func pagingStaysInItsRange() throws {
        let parsed = try query("x", limit: "50", offset: "200")
        #expect(parsed.limit == 50 && parsed.offset == 200)
        #expect(try query("x", limit: "1", offset: "0").limit == 1)
        for (limit, offset) in [("0", "0"), ("51", "0"), ("ten", "0"), ("1", "-1"), ("1", "201"), ("1", "1.5"), ("", "0")] {
            #expect(refusal("x", limit: limit, offset: offset) == .invalidParameter, "limit \(limit) offset \(offset)")
        }
    }

    @Test func badQueriesAreRefusedAsInvalidParameters() {
        #expect(refusal(nil) == .invalidParameter)
        #expect(refusal("") == .invalidParameter)
        #expect(refusal("   \t") == .invalidParameter)
        #expect(refusal("?!… --- ...") == .invalidParameter, "punctuation only: no words")
        #expect(refusal(String(repeating: "a", count: 257)) == .invalidParameter)
        #expect(refusal("one two three four five six seven eight nine") == .invalidParameter)
    }

    @Test func theLimitsAreInclusive() throws {
        #expect(try query(String(repeating: "a", count: 256)).words.count == 1)
        #expect(try query("one two three four five six seven eight").words.count == 8)
        // Counted in Unicode scalars, as JSON Schema's maxLength counts: 128 emoji are 256 UTF-16 units, 128 scalars.
        #expect(try query(String(repeating: "😀", count: 8)).words == Array(repeating: "u1f600", count: 8))
    }

    func message(_ parts: [MessagePart]) -> Message {
        Message(id: 1, roomID: "r", seq: 1, senderID: "u", parts: parts, createdAt: 0)
    }

    @Test func highlightsMarkEachMatchingWordInUTF16() throws {
        let text = "Ça va? 😀 café Cafe\u{301} au CAFÉ"
        let hit = message([.url("https://cafe.example"), .text(text), .file(FilePart(attachmentID: "a1", name: "café-menu.pdf"))])
        let highlights = SearchHighlight.all(in: hit, for: try query("café "))
        let marked = highlights.map { highlight -> String in
            let part = hit.parts[highlight.part]
            let source = Array((SearchTokenizer.searchableText(of: part) ?? "").utf16)
            return String(decoding: source[highlight.utf16Range], as: UTF16.self)
        }
        #expect(highlights.map(\.part) == [1, 1, 1, 2], "the URL part is never searched")
        #expect(marked == ["café", "Cafe\u{301}", "CAFÉ", "café"])
        // Ç (1) a (2) space v a ? space 😀 (2 units) space: "café" starts at 10.
        #expect(highlights.first?.utf16Range == 10..<14)
    }

    @Test func onlyTheLastWordMatchesAsAPrefix() throws {
        let hit = message([.text("hello helicopter help he")])
        let prefix = SearchHighlight.all(in: hit, for: try query("hel"))
        #expect(prefix.map(\.utf16Range) == [0..<5, 6..<16, 17..<21])
        let whole = SearchHighlight.all(in: hit, for: try query("hel "))
        #expect(whole.isEmpty)
        let both = SearchHighlight.all(in: hit, for: try query("help hel"))
        #expect(both.map(\.utf16Range) == [0..<5, 6..<16, 17..<21])
        let notPrefix = SearchHighlight.all(in: hit, for: try query("hel help"))
        #expect(notPrefix.map(\.utf16Range) == [17..<21])
    }

    @Test func emojiHighlightsCoverTheEmoji() throws {
        let text = "ok 👍🏽 👍 🎉"
        let hit = message([.text(text)])
        let highlights = SearchHighlight.all(in: hit, for: try query("👍"))
        #expect(highlights.count == 2)
        let units = Array(text.utf16)
        for highlight in highlights {
            #expect(String(decoding: units[highlight.utf16Range], as: UTF16.self).hasPrefix("👍"))
        }
    }

    @Test func theAnswerCarriesMessageScoreHighlightsAndNextOffset() throws {
        let hit = message([.text("good morning")])
        let parsed = try query("morning")
        let answer = ChatService.searchJSON(MessageSearchPage(hits: [MessageSearchHit(message: hit, score: 2.5)], nextOffset: 20), parsed)
        let result = try #require(answer["results"]?.arrayValue?.first)
        #expect(result["message"] == hit.json)
        #expect(result["score"]?.doubleValue == 2.5)
        #expect(result["highlights"] == .array([.object(["part": .int(0), "start": .int(5), "end": .int(12)])]))
        #expect(answer["next_offset"] == .int(20))
        let last = ChatService.searchJSON(MessageSearchPage(hits: [], nextOffset: nil), parsed)
        #expect(last["next_offset"] == .null && last["results"] == .array([]))
    }
}
