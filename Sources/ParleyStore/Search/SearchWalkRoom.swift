/// What the newest-first walk of a PostgreSQL search read of one room.
struct SearchWalkRoom: Sendable {
    /// Messages read (fewer than the walk's depth: the room was read to its first message).
    var read: Int
    /// The id of the oldest message read.
    var oldest: Int64
    /// The ids of the matches among them.
    var matches: [Int64]
}
