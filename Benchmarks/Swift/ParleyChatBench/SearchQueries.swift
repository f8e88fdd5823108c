import ParleyStore

/// The searches measured, by kind: what people type into a search box, from words in most
/// messages to words in a handful, two-word ANDs, prefixes of a word still being typed, and
/// non-ASCII words. Each kind is a list of query texts cut into words as the REST API does.
enum SearchQueries {
    /// One kind of search and the texts it cycles through.
    struct Kind {
        var name: String
        var texts: [String]
        /// Whether to search one of the user's rooms instead of all of them.
        var oneRoom = false
    }

    /// Texts per kind (the measured searches cycle through them).
    static let textsPerKind = 100

    static func kinds(_ vocabulary: SearchVocabulary, seed: UInt64) -> [Kind] {
        var random = BenchRandom(seed: seed ^ 0x5EA2C4)
        func word(_ ranks: Range<Int>, plainOnly: Bool = false) -> String {
            while true {
                let rank = ranks.lowerBound + random.below(ranks.count)
                if plainOnly && rank % SearchVocabulary.accentEvery == 5 { continue }
                return vocabulary.words[rank]
            }
        }
        func texts(_ make: () -> String) -> [String] { (0..<textsPerKind).map { _ in make() } }
        let common = 0..<10
        let medium = 100..<1_000
        let rare = 10_000..<SearchVocabulary.size
        return [
            // A trailing space: whole words only (without it the REST API matches the last word as a prefix).
            Kind(name: "common", texts: texts { word(common) + " " }),
            Kind(name: "medium", texts: texts { word(medium) + " " }),
            Kind(name: "rare", texts: texts { word(rare) + " " }),
            Kind(name: "medium-as-typed", texts: texts { word(medium) }),
            Kind(name: "common+common", texts: texts { word(common) + " " + word(common) + " " }),
            Kind(name: "common+medium", texts: texts { word(common) + " " + word(medium) + " " }),
            Kind(name: "medium+medium", texts: texts { word(medium) + " " + word(medium) + " " }),
            Kind(name: "prefix3", texts: texts { String(word(medium, plainOnly: true).prefix(3)) }),
            Kind(name: "prefix4", texts: texts { String(word(rare, plainOnly: true).prefix(4)) }),
            Kind(name: "common+prefix", texts: texts { word(common) + " " + String(word(medium, plainOnly: true).prefix(3)) }),
            Kind(name: "diacritics", texts: texts { accentedWord(random.below(2_000), vocabulary) + " " }),
            Kind(name: "cjk", texts: texts { String(SearchVocabulary.ideographs[random.below(SearchVocabulary.ideographs.count)]) }),
            Kind(name: "emoji", texts: texts { SearchVocabulary.emoji[random.below(SearchVocabulary.emoji.count)] }),
            Kind(name: "one-room-common", texts: texts { word(common) + " " }, oneRoom: true)
        ]
    }

    /// The `index`-th word with diacritics, as written (the tokenizer folds it on both sides).
    private static func accentedWord(_ index: Int, _ vocabulary: SearchVocabulary) -> String {
        vocabulary.words[index * SearchVocabulary.accentEvery + 5]
    }

    /// The query the REST API would make of `text`: its words, the last one a prefix when it has
    /// at least 3 characters and the text does not end in whitespace.
    static func query(_ text: String, room: String?, limit: Int) -> MessageSearchQuery {
        let words = SearchTokenizer.words(in: text)
        let prefix = (words.last?.count ?? 0) >= 3 && text.last.map { !$0.isWhitespace } == true
        return MessageSearchQuery(words: words, lastWordIsPrefix: prefix, room: room, limit: limit)
    }
}
