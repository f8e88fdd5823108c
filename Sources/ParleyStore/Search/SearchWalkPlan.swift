/// How far the second walk of a PostgreSQL search reads each room: down to one id common to all
/// rooms, chosen from the probe so that the messages above it hold the matches a search ranks.
///
/// The probe read the same number of messages from every room; the ids they span give each
/// room's pace (messages per id), and its matches the words' share. The floor is then the highest
/// id above which the rooms' paces put ``margin`` times the messages that hold
/// ``MessageSearchQuery/candidateLimit`` matches at that share. Every room is read down to it,
/// so a busy room is read deeper than a calm one and every match above it is known. A room's
/// depth is capped at ``depthFactor`` times what its pace puts above the floor: a room much busier
/// than its probe showed is cut there, and only the matches above its cut count.
struct SearchWalkPlan: Sendable, Equatable {
    /// The id every room is read down to; nil when the rooms are read to their first message.
    var floor: Int64?
    /// Messages read at most from each room, in the order of the rooms.
    var depths: [Int]

    /// Messages read per message the share says holds a needed match: room for the probe's
    /// sampling error.
    static let margin = 1.5
    /// A room's cap against what its pace puts above the floor.
    static let depthFactor = 3.0
    /// What a match the index hands over costs against a message the walk reads. Each match is a
    /// read of its row, somewhere in the table; the walk reads a room's entries side by side in
    /// an index (migration 18). Searches of 100 different words in turn, 1,000,000 messages, 50
    /// rooms: 6–12 µs per match in the server, against 0.4–0.6 µs per message walked; the walk's
    /// messages cost more while they are on pages not yet vacuumed, hence not the full ratio.
    static let indexCost = 8.0
    /// What a posting of a prefix in `message_words` (migration 19) costs against a message the
    /// walk reads: a range of the key read whole and sorted by id, about 0.5 µs an entry, as a
    /// message walked (a whole word's postings are read newest first, never all of them).
    static let postingsCost = 1.0
    /// What a match the GIN index hands over costs against a message above the floor of an
    /// intersection of several words' postings: the intersection reads only those messages'
    /// postings of the words (index-only, about 0.15 µs each), a fifth of a message walked. Two
    /// common words with 2–3% of the messages in common (1,000,000 messages, 50 rooms): 4.7–6.0 ms
    /// intersected in `psql`, the candidates' rows included, and 15–31 ms by the index in the
    /// server on a slow host.
    static let intersectionCost = 40.0
    /// Messages more than the probe found that a room read to its end may have since.
    static let slack = 16

    /// The plan after `probe` (each room read `depth` deep), or nil when it would read more than
    /// `budget` messages, or more than `matchCost` times the matches the rooms (`roomMessages`
    /// in all) hold at the share seen — the other path then costs less — or when the probe saw no
    /// match.
    ///
    /// The share is the probe's matches per message read, or `sample`'s when given: what a
    /// deeper walk saw, far more messages than the probe (the rooms' paces still come from the
    /// probe, which read every room to the same depth).
    init?(
        probe rooms: [SearchWalkRoom], depth: Int, roomMessages: Int, budget: Int, sample: SearchWalkSample? = nil,
        matchCost: Double = indexCost
    ) {
        let seen = sample ?? SearchWalkSample(rooms)
        let read = seen.read
        let matches = seen.matches
        guard matches > 0, read > 0 else { return nil }
        let wanted = Self.margin * Double(MessageSearchQuery.candidateLimit) * Double(read) / Double(matches)
        guard wanted <= Double(budget), wanted < matchCost * Double(roomMessages) * Double(matches) / Double(read) else { return nil }
        let paces = rooms.map { Self.pace($0, depth: depth) }
        let floor = Self.floor(rooms, paces: paces, wanted: wanted)
        self.floor = floor
        depths = zip(rooms, paces).map { room, pace in
            guard pace > 0 else { return room.read + Self.slack }
            return Int((Self.depthFactor * Self.expected(room, pace: pace, above: floor ?? 1)).rounded(.up)) + Self.slack
        }
    }

    /// Whether this plan reads deeper than `other`: down to a lower floor, or to the rooms'
    /// first messages where `other` stopped at a floor.
    func readsDeeper(than other: SearchWalkPlan) -> Bool {
        guard let otherFloor = other.floor else { return false }
        guard let floor else { return true }
        return floor < otherFloor
    }

    /// A room's messages per id, from the span of the `read` newest: `read - 1` gaps, and one
    /// less in the numerator so that the estimate is not high on average (the newest of a room
    /// ends a gap, and the span of k gaps of a steady pace is on average k over the pace); 0 for
    /// a room read to its end, which holds nothing below what was read.
    static func pace(_ room: SearchWalkRoom, depth: Int) -> Double {
        guard room.read >= depth, room.newest > room.oldest else { return 0 }
        return Double(max(1, room.read - 2)) / Double(room.newest - room.oldest)
    }

    /// Messages a room's pace puts at or above `id`.
    static func expected(_ room: SearchWalkRoom, pace: Double, above id: Int64) -> Double {
        room.newest < id ? 0 : pace * Double(room.newest - id + 1)
    }

    /// The highest id with `wanted` messages at or above it by the rooms' paces, or nil when even
    /// the rooms whole hold fewer.
    private static func floor(_ rooms: [SearchWalkRoom], paces: [Double], wanted: Double) -> Int64? {
        func total(above id: Int64) -> Double { zip(rooms, paces).reduce(0) { $0 + expected($1.0, pace: $1.1, above: id) } }
        guard total(above: 1) >= wanted else { return nil }
        var low: Int64 = 1
        var high = rooms.map(\.newest).max() ?? 1
        // The largest id in low...high with total(above: id) >= wanted (total falls as id rises).
        while low < high {
            let middle = low + (high - low + 1) / 2
            if total(above: middle) >= wanted { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
