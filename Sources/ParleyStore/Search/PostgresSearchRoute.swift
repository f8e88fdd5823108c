/// How a PostgreSQL search reaches the newest matches in scope, decided after the walk's probe.
enum PostgresSearchRoute: Sendable, Equatable {
    /// A walk saw them all: their ids, newest first.
    case newest([Int64])
    /// One word (or prefix): read from `message_words` (migration 19), from `floor` up when the
    /// probe gave one (every room's matches above it), else all of them.
    case postings(floor: Int64?)
    /// Several whole words in many messages: each room's postings of all of them from `floor` up
    /// (0: all), intersected; the GIN index when those hold too few.
    case intersection(floor: Int64)
    /// Several words in few messages, or the last a prefix: the GIN index, which intersects
    /// them before reading any row.
    case index
}
