/// Generated chat text with a realistic skew: words drawn from a Zipf distribution over a
/// synthetic vocabulary (a few very common words, a long tail of rare ones), with some
/// messages in other scripts and some emoji, and the query mix the search mode measures.
struct SearchText {
    /// Words by rank (0 is the most frequent).
    let vocabulary: [String]
    /// Cumulative Zipf weights of the ranks, for sampling by binary search.
    private let cumulative: [Double]
    private var state: UInt64

    static let foreign = ["東京", "会議", "駅", "привет", "мир", "grüße", "café", "서울", "ありがとう", "été"]
    static let emoji = ["🎉", "👍", "🔥", "😂", "🚀", "❤️"]

    init(vocabularySize: Int = 20_000, seed: UInt64 = 42) {
        let syllables = [
            "ka", "lo", "mi", "ne", "su", "ra", "ti", "po", "de", "fa", "gu", "ve", "bi", "zo", "he", "ju", "wa", "xe", "ci", "mo"
        ]
        var words: [String] = []
        var index = 0
        while words.count < vocabularySize {
            var value = index, word = ""
            repeat {
                word += syllables[value % syllables.count]
                value /= syllables.count
            } while value > 0
            if word.count >= 4 { words.append(word) }
            index += 1
        }
        vocabulary = words
        var total = 0.0
        cumulative = (1...vocabularySize).map { rank in
            total += 1 / Double(rank)
            return total
        }
        state = seed
    }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A word rank drawn from the Zipf distribution.
    mutating func rank() -> Int {
        let target = Double(next() >> 11) / Double(1 << 53) * cumulative[cumulative.count - 1]
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A message of 4–16 words; one in ten has a word of another script, one in ten an emoji.
    mutating func message() -> String {
        var words = (0..<(4 + uniform(13))).map { _ in vocabulary[rank()] }
        if uniform(10) == 0 { words.insert(Self.foreign[uniform(Self.foreign.count)], at: uniform(words.count)) }
        if uniform(10) == 0 { words.append(Self.emoji[uniform(Self.emoji.count)]) }
        return words.joined(separator: " ")
    }

    /// The query kinds measured, in turn.
    enum QueryKind: String, CaseIterable {
        case rare, medium, common, twoWords, foreign, emoji
    }

    /// A query of `kind`: a rare word (rank 2,000–20,000), a medium one (200–2,000), a common
    /// one (10–200), a medium and a common word together, a word of another script, an emoji.
    mutating func query(_ kind: QueryKind) -> String {
        switch kind {
        case .rare: vocabulary[2_000 + uniform(vocabulary.count - 2_000)]
        case .medium: vocabulary[200 + uniform(1_800)]
        case .common: vocabulary[10 + uniform(190)]
        case .twoWords: vocabulary[200 + uniform(1_800)] + " " + vocabulary[10 + uniform(190)]
        case .foreign: Self.foreign[uniform(Self.foreign.count)]
        case .emoji: Self.emoji[uniform(Self.emoji.count)]
        }
    }
}
