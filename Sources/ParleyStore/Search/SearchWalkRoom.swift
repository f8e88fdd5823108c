/// What the newest-first walk of a PostgreSQL search read of one room.
struct SearchWalkRoom: Sendable, Equatable {
    /// Messages read (fewer than the walk's depth: the room was read to its first message, or to
    /// the walk's floor).
    var read: Int
    /// The id of the oldest message read.
    var oldest: Int64
    /// The id of the newest message read.
    var newest: Int64
    /// The ids of the matches among them.
    var matches: [Int64]

    /// A room the walk found nothing to read in.
    static let empty = SearchWalkRoom(read: 0, oldest: .max, newest: 0, matches: [])
}
