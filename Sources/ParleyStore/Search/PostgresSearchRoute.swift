/// How a PostgreSQL search reaches the newest matches in scope, decided after the walk's probe.
enum PostgresSearchRoute: Sendable, Equatable {
    /// A walk saw them all: their ids, newest first.
    case newest([Int64])
    /// One word (or prefix) in many messages: read from `message_words` (migration 19), from
    /// `floor` up when the probe gave one (every room's matches above it), else all of them.
    case postings(floor: Int64?)
    /// Several whole words with many messages in common: each room's postings of all of them from
    /// `floor` up (0: all), intersected; the GIN index when those hold too few.
    case intersection(floor: Int64)
    /// One word in few messages, several words with few in common, several ending in a prefix
    /// that the walk does not answer, or rooms too many to walk: the GIN index.
    case index
}
