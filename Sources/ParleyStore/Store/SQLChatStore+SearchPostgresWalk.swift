/// The newest-first walk of a PostgreSQL search: for words in many messages, reading the newest
/// messages of each room in scope finds the newest matches sooner than the GIN index, which hands
/// over every match (thousands for a common word) in no useful order, each to be read and sorted.
///
/// Each room is read newest first (`messages_room_newest`) to the same depth, each message checked
/// against the words. A room read to that depth is known down to its oldest message read, a room
/// read to its end entirely, so every match newer than the highest of those floors is known; when
/// there are ``MessageSearchQuery/candidateLimit`` of them they are the newest matches in scope,
/// whatever the rooms' pace. Otherwise (rarer words, or one room much busier than the rest) the
/// index answers instead: the walk cost a bounded ``searchWalkBudget`` messages.
extension SQLChatStore {
    /// Messages one walk reads at most, spread evenly over the rooms.
    static let searchWalkBudget = 2_048
    /// The fewest messages read per room: below it the floors of busy rooms rarely meet.
    static let searchWalkMinimumDepth = 8
    /// Above this many rooms the walk is not tried (too shallow per room to find enough).
    static let searchWalkRoomLimit = 256

    /// The messages read per room for `rooms` rooms: the budget spread evenly.
    static func searchWalkDepth(rooms: Int) -> Int {
        max(searchWalkMinimumDepth, (searchWalkBudget + rooms - 1) / max(1, rooms))
    }

    /// The ids of the newest matches in scope, newest first, or nil when the walk cannot tell
    /// (or is not tried): `depth` messages read per room.
    static func searchWalk(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, depth: Int
    ) throws -> [Int64]? {
        guard scope.rooms.count <= searchWalkRoomLimit else { return nil }
        let parameters: [SQLValue] = [.text(app), .text(user), .text(scope.wordQuery), .text(postgresArray(scope.rooms)), .int(depth)]
        let rooms = try context.query(searchWalkSQL, parameters) { row in
            SearchWalkRoom(read: row.int(0), oldest: row.int64(1), matches: integers(row.text(2)).map(Int64.init))
        }
        return newestMatches(rooms, depth: depth)
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
        FROM unnest($4::text[]) AS r(room) CROSS JOIN LATERAL (
            SELECT m.id, (m.search @@ $3::tsquery AND m.deleted_at IS NULL
                    AND m.sender_id <> ALL (ARRAY(SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2))) AS hit
            FROM messages m WHERE m.app_id = $1 AND m.room_id = r.room ORDER BY m.id DESC LIMIT $5
        ) AS w
        GROUP BY r.room
        """
}
