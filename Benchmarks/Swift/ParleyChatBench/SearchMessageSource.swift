import ParleyStore

/// The seeded messages in order: message j goes to a random room, from one of that room's
/// members, with 4–24 words drawn from the vocabulary, sometimes followed by a few Han, kana or
/// Hangul characters (3%) or an emoji (5%).
struct SearchMessageSource {
    /// One message row: the columns the send path fills for a text message.
    struct Row: Sendable {
        var room: Int
        var seq: Int64
        var sender: Int
        var parts: String
        /// The search document the send path stores beside the parts (SQLite's index input).
        var document: String?
        var createdAt: Int64
    }

    /// The members (and senders) of each room besides the searching user.
    static let membersPerRoom = 10

    let vocabulary: SearchVocabulary
    private let options: SearchOptions
    private var random: BenchRandom
    private var lastSeq: [Int64]
    private(set) var produced = 0
    private let firstCreatedAt: Int64

    init(options: SearchOptions, vocabulary: SearchVocabulary, now: Int64) {
        self.options = options
        self.vocabulary = vocabulary
        random = BenchRandom(seed: options.seed)
        lastSeq = Array(repeating: 0, count: options.rooms)
        // A second apart, ending now: the newest messages are the last seeded.
        firstCreatedAt = now - Int64(options.messages) * 1_000
    }

    /// Messages that follow the rooms' `lastSeqs`, a millisecond apart from `now` on, drawn with
    /// another seed than the seeded ones.
    init(continuing lastSeqs: [Int64], options: SearchOptions, vocabulary: SearchVocabulary, now: Int64) {
        self.options = options
        self.vocabulary = vocabulary
        random = BenchRandom(seed: options.seed &+ 1)
        lastSeq = lastSeqs
        firstCreatedAt = now
    }

    /// Sender `slot` (0..<membersPerRoom) of room `room`.
    static func member(_ slot: Int, ofRoom room: Int, senders: Int) -> Int {
        (room * membersPerRoom + slot) % senders
    }

    /// The next `count` messages.
    mutating func next(_ count: Int) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            let room = random.below(options.rooms)
            lastSeq[room] += 1
            let text = nextText()
            let parts = #"[{"type":"text","text":""# + text + #""}]"#
            rows.append(
                Row(
                    room: room, seq: lastSeq[room],
                    sender: Self.member(random.below(Self.membersPerRoom), ofRoom: room, senders: options.senders),
                    parts: parts, document: SearchTokenizer.document(for: [.text(text)]),
                    createdAt: firstCreatedAt + Int64(produced) * 1_000))
            produced += 1
        }
        return rows
    }

    /// Each room's last seq so far.
    var roomSeqs: [Int64] { lastSeq }

    /// A sentence: capitalised, words from the Zipf vocabulary, some commas, an end mark; no
    /// characters that JSON would need to escape.
    private mutating func nextText() -> String {
        var text = ""
        let count = 4 + random.below(21)
        for index in 0..<count {
            var word = vocabulary.words[vocabulary.rank(&random)]
            if index == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
            if index > 0 { text += random.below(12) == 0 ? ", " : " " }
            text += word
        }
        text += random.below(5) == 0 ? "?" : "."
        if random.below(100) < 3 {
            text += " "
            for _ in 0..<(1 + random.below(4)) {
                text.append(SearchVocabulary.ideographs[random.below(SearchVocabulary.ideographs.count)])
            }
        }
        if random.below(100) < 5 {
            text += " " + SearchVocabulary.emoji[random.below(SearchVocabulary.emoji.count)]
        }
        return text
    }
}
