/// The words of the seeded messages: a vocabulary whose ranks follow a Zipf–Mandelbrot law, as
/// natural language does (a handful of words in most messages, most words in a few), plus
/// Latin words with diacritics, Han/kana/Hangul characters and emoji.
struct SearchVocabulary {
    /// Words in the vocabulary.
    static let size = 50_000
    /// Every `accentEvery`-th rank is a word with diacritics (folded by the tokenizer).
    static let accentEvery = 11
    /// Characters written without spaces; each is one word to the tokenizer.
    static let ideographs = Array(
        "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与所お願いしますありがとう안녕하세요감사합니다"
    )
    /// Emoji, some with a skin tone (ignored by the tokenizer).
    static let emoji = ["😀", "😂", "👍", "👍🏽", "🎉", "❤️", "🔥", "🙏", "😅", "🚀", "✅", "👀", "🤔", "😢", "💯", "🙌🏿"]

    private static let consonants = Array("bdfgklmnprstvz")
    private static let vowels = Array("aeiou")
    private static let accented: [Character: Character] = ["a": "á", "e": "é", "i": "ï", "o": "ö", "u": "ü"]

    /// The words by rank, most frequent first.
    let words: [String]
    /// The cumulative weights of the ranks, for drawing a rank by binary search.
    private let cumulative: [Double]

    init() {
        words = (0..<Self.size).map(Self.word)
        var total = 0.0
        cumulative = (0..<Self.size).map { rank in
            total += 1 / (Double(rank) + 2.7)
            return total
        }
    }

    /// Draws a rank: rank r has weight 1 / (r + 2.7).
    func rank(_ random: inout BenchRandom) -> Int {
        let target = random.unit() * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `count` words drawn by rank, separated by spaces.
    func sentence(_ count: Int, _ random: inout BenchRandom) -> String {
        (0..<count).map { _ in words[rank(&random)] }.joined(separator: " ")
    }

    /// Rank `rank`'s word: consonant–vowel syllables spelling the rank (so no two ranks share a
    /// word); every `accentEvery`-th starts with `ç` and carries an accent, and since plain words
    /// never contain a `c`, its folded form is still its own.
    static func word(_ rank: Int) -> String {
        var number = rank + consonants.count * vowels.count  // at least two syllables
        var syllables: [Character] = []
        while number > 0 {
            let syllable = number % (consonants.count * vowels.count)
            syllables.append(vowels[syllable % vowels.count])
            syllables.append(consonants[syllable / vowels.count])
            number /= consonants.count * vowels.count
        }
        var word = String(syllables.reversed())
        if rank % accentEvery == 5, let vowel = word.last, let accent = accented[vowel] {
            word = "ç" + word.dropLast() + String(accent)
        }
        return word
    }
}
