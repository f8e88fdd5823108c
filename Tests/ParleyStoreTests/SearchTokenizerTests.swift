import ParleyStore
import Testing

/// The words search indexes and matches: one rule set for messages and queries on both engines.
@Suite struct SearchTokenizerTests {
    @Test func asciiWordsAreLowercasedAndPunctuationSeparates() {
        #expect(SearchTokenizer.words(in: "Hello, World! it's 2026-12-02") == ["hello", "world", "it", "s", "2026", "12", "02"])
    }

    @Test func latinDiacriticsFoldSoAccentedAndPlainMeet() {
        #expect(SearchTokenizer.words(in: "Café Ångström Łódź") == ["cafe", "angstrom", "lodz"])
        // The same word typed with a combining accent (NFD) is the same word.
        #expect(SearchTokenizer.words(in: "Cafe\u{301}") == ["cafe"])
    }

    @Test func otherAlphabetsAreWordsLowercased() {
        #expect(SearchTokenizer.words(in: "Привет мир") == ["привет", "мир"])
        #expect(SearchTokenizer.words(in: "Γειά σου") == ["γειά", "σου"])
        #expect(SearchTokenizer.words(in: "مرحبا بالعالم") == ["مرحبا", "بالعالم"])
        // Devanagari vowel signs and the virama are marks inside the word, not separators.
        #expect(SearchTokenizer.words(in: "नमस्ते दुनिया") == ["नमस्ते", "दुनिया"])
    }

    @Test func hanKanaAndHangulAreOneWordPerCharacter() {
        #expect(SearchTokenizer.words(in: "你好世界") == ["你", "好", "世", "界"])
        #expect(SearchTokenizer.words(in: "こんにちはabc") == ["こ", "ん", "に", "ち", "は", "abc"])
        #expect(SearchTokenizer.words(in: "안녕") == ["안", "녕"])
    }

    @Test func emojiAreWordsOfTheirOwnWithoutSkinTonesOrJoiners() {
        #expect(SearchTokenizer.words(in: "ship it🚀now") == ["ship", "it", "u1f680", "now"])
        #expect(SearchTokenizer.words(in: "👍🏽") == ["u1f44d"])
        #expect(SearchTokenizer.words(in: "❤️") == ["u2764"])
        // A family: three people joined; each person is a word.
        #expect(SearchTokenizer.words(in: "👨‍👩‍👧") == ["u1f468", "u1f469", "u1f467"])
    }

    @Test func rangesAreUTF16OffsetsOfTheOriginalText() {
        let text = "😀 Café naïve"
        let tokens = SearchTokenizer.tokens(in: text)
        #expect(tokens.map(\.word) == ["u1f600", "cafe", "naive"])
        let utf16 = Array(text.utf16)
        let cafe = String(decoding: utf16[tokens[1].utf16Range], as: UTF16.self)
        #expect(cafe == "Café")
        #expect(tokens[0].utf16Range == 0..<2)
        #expect(String(decoding: utf16[tokens[2].utf16Range], as: UTF16.self) == "naïve")
    }

    @Test func theASCIIFastPathAgreesWithTheScalarPath() {
        let samples = ["Hello World", "a1b2  C3", "x--y__z", "", "   ", "MiXeD 123abc DEF"]
        for sample in samples {
            #expect(SearchTokenizer.words(in: sample) == SearchTokenizer.tokens(in: sample).map(\.word), "\(sample)")
        }
    }

    @Test func longRunsAreCutAtTheWordLimit() {
        let run = String(repeating: "a", count: 500)
        #expect(SearchTokenizer.words(in: run) == [String(repeating: "a", count: SearchTokenizer.maximumWordBytes)])
        let cyrillic = String(repeating: "ж", count: 100)
        #expect(SearchTokenizer.words(in: cyrillic).first?.utf8.count ?? 0 <= SearchTokenizer.maximumWordBytes)
    }

    @Test func aDocumentHoldsTextAndFileNamesButNotIdsOrURLs() {
        let file = FilePart(attachmentID: "att1", name: "Quarterly-Report.pdf", contentType: "application/pdf", size: 10)
        let parts: [MessagePart] = [.text("See the report"), .attachment(id: "img9"), .url("https://example.com/x"), .file(file)]
        #expect(SearchTokenizer.document(for: parts) == "see the report quarterly report pdf")
        #expect(SearchTokenizer.document(for: [.text("!!! ...")]) == nil)
    }

    /// A document is its parts' words joined by single spaces, whichever path cut each part.
    @Test func aDocumentIsThePartsWordsJoinedWhateverPathCutThem() {
        let samples: [[String]] = [
            ["Hello, World!"], ["  ...leading and trailing...  ", "Second PART"], ["a"], ["!!!", "x"],
            [String(repeating: "Long", count: 40) + " tail"], ["ascii first", "Ünïcode next", "and ascii again"],
            ["😀 emoji", "PLAIN"], ["", "   ", "word"]
        ]
        for texts in samples {
            let expected = texts.flatMap { SearchTokenizer.words(in: $0) }.joined(separator: " ")
            let document = SearchTokenizer.document(for: texts.map { .text($0) })
            #expect(document == (expected.isEmpty ? nil : expected), "\(texts)")
        }
    }
}
