/// Messages a walk of a PostgreSQL search read, and how many of them matched: the words' share
/// of the rooms' messages that a ``SearchWalkPlan`` plans from.
struct SearchWalkSample: Sendable, Equatable {
    var read: Int
    var matches: Int

    init(read: Int, matches: Int) {
        self.read = read
        self.matches = matches
    }

    /// What the walk that read `rooms` saw, in all.
    init(_ rooms: [SearchWalkRoom]) {
        read = rooms.reduce(0) { $0 + $1.read }
        matches = rooms.reduce(0) { $0 + $1.matches.count }
    }
}
