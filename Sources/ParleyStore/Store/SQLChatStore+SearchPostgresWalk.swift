/// The newest-first walk of a PostgreSQL search: for words in many messages, reading the newest
/// messages of each room in scope finds the newest matches sooner than the GIN index, which hands
/// over every match (thousands for a common word) in no useful order, each to be read and sorted.
///
/// Each room is read newest first (`messages_room_newest`) to the same depth, each message checked
/// against the words. A room read to that depth is known down to its oldest message read, a room
/// read to its end entirely, so every match newer than the highest of those floors is known; when
/// there are ``MessageSearchQuery/candidateLimit`` of them they are the newest matches in scope,
/// whatever the rooms' pace. The first walk is a small probe (``searchWalkBudget`` messages); when
/// it saw matches but too few, their share says how deep a second walk must read, and it is made
/// when that stays within ``searchWalkDeepBudget`` and reads fewer messages than the rooms hold
/// matches at that share: each message the walk or the index hands over is one read from the
/// table (the index's postings are the rooms' own, migration 16), so the fewer reads win.
/// Otherwise (rarer words, or one room much busier than the rest) the index answers.
extension SQLChatStore {
    /// Messages the first walk reads at most, spread evenly over the rooms: a probe of the
    /// words' share, cheap next to what either path then reads.
    static let searchWalkBudget = 256
    /// Messages a second, deeper walk may read when the first saw matches but not enough.
    static let searchWalkDeepBudget = 8_192
    /// The fewest messages read per room.
    static let searchWalkMinimumDepth = 4
    /// Above this many rooms the walk is not tried (too shallow per room to find enough).
    static let searchWalkRoomLimit = 256

    /// The messages read per room for `rooms` rooms: the budget spread evenly.
    static func searchWalkDepth(rooms: Int) -> Int {
        max(searchWalkMinimumDepth, (searchWalkBudget + rooms - 1) / max(1, rooms))
    }

    /// The ids of the newest matches in scope, newest first, or nil when the walk cannot tell
    /// (or is not tried): `depth` messages read per room, then once more deeper when the share
    /// of matches seen says that would do.
    static func searchWalk(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, depth: Int
    ) throws -> [Int64]? {
        guard scope.rooms.count <= searchWalkRoomLimit else { return nil }
        let rooms = try walkRooms(context, app: app, user: user, scope, depth: depth)
        if let newest = newestMatches(rooms, depth: depth) { return newest }
        guard let deeper = deeperWalkDepth(rooms, depth: depth, roomCount: scope.rooms.count, roomMessages: scope.roomMessages) else {
            return nil
        }
        return newestMatches(try walkRooms(context, app: app, user: user, scope, depth: deeper), depth: deeper)
    }

    private static func walkRooms(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, depth: Int
    ) throws -> [SearchWalkRoom] {
        let parameters: [SQLValue] = [
            .text(app), .text(user), .text(postgresArray(scope.roomQueries)), .text(postgresArray(scope.rooms)), .int(depth)
        ]
        return try context.query(searchWalkSQL, parameters) { row in
            SearchWalkRoom(read: row.int(0), oldest: row.int64(1), matches: integers(row.text(2)).map(Int64.init))
        }
    }

    /// The share of the messages read that matched.
    static func matchShare(_ rooms: [SearchWalkRoom]) -> Double {
        let read = rooms.reduce(0) { $0 + $1.read }
        return read == 0 ? 0 : Double(rooms.reduce(0) { $0 + $1.matches.count }) / Double(read)
    }

    /// The depth a second walk needs to find enough matches at the share of matches the first
    /// one saw (with a margin for rooms of unequal pace), or nil when that would read more than
    /// ``searchWalkDeepBudget`` messages, or more than the rooms' `roomMessages` hold matches at
    /// that share: the index is then the cheaper way.
    static func deeperWalkDepth(_ rooms: [SearchWalkRoom], depth: Int, roomCount: Int, roomMessages: Int) -> Int? {
        let read = rooms.reduce(0) { $0 + $1.read }
        let matches = rooms.reduce(0) { $0 + $1.matches.count }
        guard matches > 0, read > 0 else { return nil }
        let needed = 2 * MessageSearchQuery.candidateLimit * read / matches
        let deeper = (needed + roomCount - 1) / max(1, roomCount)
        let estimatedMatches = roomMessages * matches / read
        guard deeper > depth, deeper * roomCount <= searchWalkDeepBudget, deeper * roomCount < estimatedMatches else { return nil }
        return deeper
    }

    /// The newest ``MessageSearchQuery/candidateLimit`` matches if the walk saw them all.
    static func newestMatches(_ rooms: [SearchWalkRoom], depth: Int) -> [Int64]? {
        // A room read to its end (fewer than `depth` messages) is known entirely: no floor.
        let floor = rooms.filter { $0.read >= depth }.map(\.oldest).max() ?? Int64.min
        let known = rooms.flatMap { room in room.matches.filter { $0 >= floor } }.sorted(by: >)
        guard known.count >= MessageSearchQuery.candidateLimit || floor == Int64.min else { return nil }
        return Array(known.prefix(MessageSearchQuery.candidateLimit))
    }

    /// Per room: messages read, the oldest id read, the matches' ids. A deleted message or one of
    /// a blocked sender is read but is no match.
    static let searchWalkSQL = """
        SELECT count(*), min(w.id), coalesce(array_to_string(array_agg(w.id) FILTER (WHERE w.hit), ' '), '')
        FROM unnest($4::text[], $3::text[]) AS r(room, query)
        CROSS JOIN LATERAL (SELECT r.query::tsquery OFFSET 0) AS q(query)
        CROSS JOIN LATERAL (
            SELECT m.id, (m.search @@ q.query AND m.deleted_at IS NULL
                    AND m.sender_id <> ALL (ARRAY(SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2))) AS hit
            FROM messages m WHERE m.app_id = $1 AND m.room_id = r.room ORDER BY m.id DESC LIMIT $5
        ) AS w
        GROUP BY r.room
        """
}
