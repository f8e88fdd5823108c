/// The newest-first walk of a PostgreSQL search: for words in many messages, reading the newest
/// messages of each room in scope finds the newest matches sooner than the GIN index, which hands
/// over every match (thousands for a common word) in no useful order, each to be read and sorted.
///
/// A room read newest first down to some message is known down to it, a room read to its end
/// entirely, so every match newer than the highest of those floors is known; when there are
/// ``MessageSearchQuery/candidateLimit`` of them they are the newest matches in scope. The first
/// walk is a small probe, the same number of messages from each room (``searchWalkBudget`` in
/// all). When it saw matches but too few, it tells the words' share and each room's pace, and a
/// second walk reads every room down to one common id, chosen so that the messages above it hold
/// the matches needed at that share with a margin (``SearchWalkPlan``): rooms of unequal pace are
/// read to unequal depths, and every match above that id is known. It is made when it stays
/// within ``searchWalkDeepBudget`` and costs less than the index would: the walk reads each
/// room's entries side by side in `messages_room_search` (migration 18), while each match the
/// index hands over is a read of its row, scattered over the table (the index's postings are the
/// rooms' own, migration 16), several times the cost (``SearchWalkPlan/indexCost``). Otherwise
/// (rarer words) the index answers.
///
/// A probe sees a few matches at most, so its share can be well off. When the second walk falls
/// short, the share it saw (over thousands of messages) plans a third, deeper one under the same
/// rules; only when that is not allowed, or falls short too, does the index answer.
extension SQLChatStore {
    /// Messages the first walk reads at most, spread evenly over the rooms: a probe of the
    /// words' share, cheap next to what either path then reads.
    static let searchWalkBudget = 256
    /// Messages a second, deeper walk may plan to read.
    static let searchWalkDeepBudget = 12_288
    /// The fewest messages read per room.
    static let searchWalkMinimumDepth = 4
    /// Above this many rooms the walk is not tried (too shallow per room to find enough).
    static let searchWalkRoomLimit = 256
    /// The fewest matches in scope (by the probe's share) for which one word's postings cost less
    /// than the GIN index: each candidate the postings keep is a read of its row by id, while the
    /// index reads its matches' rows in the table's order, cheaper each (1,000,000 messages, 50
    /// rooms: 182 matches took 1.3–2.0 ms by the index and 1.6–2.2 ms by the postings; 1,000 took
    /// 4.2–6.4 and 2.0–2.9).
    static let searchPostingsMinimumMatches = 600

    /// The messages read per room for `rooms` rooms: the budget spread evenly.
    static func searchWalkDepth(rooms: Int) -> Int {
        max(searchWalkMinimumDepth, (searchWalkBudget + rooms - 1) / max(1, rooms))
    }

    /// The ids of the newest matches in scope, newest first, or nil when the walk cannot tell
    /// (or is not tried): `depth` messages read per room, then once more down to the id the
    /// probe's share of matches and the rooms' paces say would do.
    static func searchWalk(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, depth: Int
    ) throws -> [Int64]? {
        guard scope.rooms.count <= searchWalkRoomLimit else { return nil }
        let (rooms, newest) = try searchProbe(context, app: app, user: user, scope, depth: depth)
        if let newest { return newest }
        return try searchWalk(context, app: app, user: user, scope, after: rooms, depth: depth, matchCost: SearchWalkPlan.indexCost)
    }

    /// The first walk, `depth` messages of every room, and the newest matches if it saw them all.
    static func searchProbe(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, depth: Int
    ) throws -> (rooms: [SearchWalkRoom], newest: [Int64]?) {
        let depths = Array(repeating: depth, count: scope.rooms.count)
        let rooms = try walkRooms(context, app: app, user: user, scope, depths: depths, from: nil)
        return (rooms, newestMatches(rooms, depths: depths, from: nil))
    }

    /// The walks after the probe `rooms` (each room read `depth` deep), which did not answer.
    static func searchWalk(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, after rooms: [SearchWalkRoom], depth: Int,
        matchCost: Double
    ) throws -> [Int64]? {
        guard
            let plan = SearchWalkPlan(
                probe: rooms, depth: depth, roomMessages: scope.roomMessages, budget: searchWalkDeepBudget, matchCost: matchCost)
        else { return nil }
        let deeper = try walkRooms(context, app: app, user: user, scope, depths: plan.depths, from: plan.floor)
        if let newest = newestMatches(deeper, depths: plan.depths, from: plan.floor) { return newest }
        // The probe's few matches overstated the words' share; the second walk's many tell it
        // better. A third walk planned from them costs less than the index whenever the plan
        // allows it, which the index would otherwise pay on top of the walks already made.
        guard
            let retry = SearchWalkPlan(
                probe: rooms, depth: depth, roomMessages: scope.roomMessages, budget: searchWalkDeepBudget,
                sample: SearchWalkSample(deeper), matchCost: matchCost),
            retry.readsDeeper(than: plan)
        else { return nil }
        let deepest = try walkRooms(context, app: app, user: user, scope, depths: retry.depths, from: retry.floor)
        return newestMatches(deepest, depths: retry.depths, from: retry.floor)
    }

    /// The way to the newest matches of `scope`, after the probe when it cannot answer.
    ///
    /// - Several whole words: their postings intersected from the floor a walk would read to
    ///   (reading the words' postings costs a fraction of reading every message,
    ///   ``SearchWalkPlan/intersectionCost``), or the GIN index where that costs more.
    /// - Several words, the last a prefix: the walk, else the GIN index.
    /// - One word in many messages (by the probe's share): its postings, from the floor the
    ///   probe's share gives for a whole word (read newest first, they cost less than any deeper
    ///   walk); a prefix is walked when the walk reads fewer messages than its range holds
    ///   postings. One word in few messages: the GIN index, which reads those few rows in the
    ///   table's order, cheaper than one by one.
    static func postgresSearchRoute(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope
    ) throws -> PostgresSearchRoute {
        let single = scope.prefix ? scope.lexemes.count == 1 : scope.distinctLexemes.count == 1
        guard scope.rooms.count <= searchWalkRoomLimit else { return .index }
        let depth = searchWalkDepth(rooms: scope.rooms.count)
        let (probe, newest) = try searchProbe(context, app: app, user: user, scope, depth: depth)
        if let newest { return .newest(newest) }
        guard single else {
            if scope.prefix {
                return try searchWalk(context, app: app, user: user, scope, after: probe, depth: depth, matchCost: SearchWalkPlan.indexCost)
                    .map { .newest($0) } ?? .index
            }
            let plan = SearchWalkPlan(
                probe: probe, depth: depth, roomMessages: scope.roomMessages, budget: .max, matchCost: SearchWalkPlan.intersectionCost)
            return plan.map { .intersection(floor: $0.floor ?? 0) } ?? .index
        }
        let seen = SearchWalkSample(probe)
        let expected = Double(scope.roomMessages) * Double(seen.matches) / Double(max(1, seen.read))
        guard expected >= Double(searchPostingsMinimumMatches) else { return .index }
        if scope.prefix {
            let walked = try searchWalk(
                context, app: app, user: user, scope, after: probe, depth: depth, matchCost: SearchWalkPlan.postingsCost)
            return walked.map { .newest($0) } ?? .postings(floor: nil)
        }
        let plan = SearchWalkPlan(probe: probe, depth: depth, roomMessages: scope.roomMessages, budget: .max, matchCost: .infinity)
        return .postings(floor: plan?.floor)
    }

    static func walkRooms(
        _ context: SQLContext, app: String, user: String, _ scope: PostgresSearchScope, depths: [Int], from floor: Int64?
    ) throws -> [SearchWalkRoom] {
        let parameters: [SQLValue] = [
            .text(app), .text(user), .text(postgresArray(scope.roomQueries)), .text(postgresArray(scope.rooms)),
            .text("{" + depths.map(String.init).joined(separator: ",") + "}"), .integer(floor ?? 0)
        ]
        var rooms = Array(repeating: SearchWalkRoom.empty, count: scope.rooms.count)
        for (index, room) in try context.query(
            searchWalkSQL, parameters,
            { row in
                (
                    row.int(0) - 1,
                    SearchWalkRoom(
                        read: row.int(1), oldest: row.int64(2), newest: row.int64(3), matches: integers(row.text(4)).map(Int64.init))
                )
            }) where rooms.indices.contains(index)
        {
            rooms[index] = room
        }
        return rooms
    }

    /// The newest ``MessageSearchQuery/candidateLimit`` matches if the walk saw them all:
    /// `depths[i]` messages at most read from room `i`, none below `floor` (nil: no such bound).
    static func newestMatches(_ rooms: [SearchWalkRoom], depths: [Int], from floor: Int64?) -> [Int64]? {
        // A room read to its full depth is known down to its oldest message read; one read to
        // fewer is known down to the floor, or entirely when there is none.
        let depthFloor = zip(rooms, depths).filter { $0.read >= $1 }.map(\.0.oldest).max()
        let known = [floor, depthFloor].compactMap { $0 }.max() ?? Int64.min
        let matches = rooms.flatMap { room in room.matches.filter { $0 >= known } }.sorted(by: >)
        guard matches.count >= MessageSearchQuery.candidateLimit || known == Int64.min else { return nil }
        return Array(matches.prefix(MessageSearchQuery.candidateLimit))
    }

    /// ``newestMatches(_:depths:from:)`` of a walk of `depth` messages in every room.
    static func newestMatches(_ rooms: [SearchWalkRoom], depth: Int) -> [Int64]? {
        newestMatches(rooms, depths: Array(repeating: depth, count: rooms.count), from: nil)
    }

    /// Per room (its place in `$4`, from 1): messages read, the oldest and newest ids read, the matches' ids; at most its
    /// depth (`$5`, in the order of the rooms), none below `$6`. A deleted message or one of a
    /// blocked sender is read but is no match. A room with nothing to read gives no row.
    ///
    /// A room's messages are read newest first from its entries in `messages_room_search`
    /// (migration 18), an index-only scan, merged with the few whose vectors are too long for
    /// that index, read from the table through `messages_room_search_long`.
    static let searchWalkSQL = """
        SELECT r.n, count(*), min(w.id), max(w.id), coalesce(array_to_string(array_agg(w.id) FILTER (WHERE w.hit), ' '), '')
        FROM unnest($4::text[], $3::text[], $5::int[]) WITH ORDINALITY AS r(room, query, depth, n)
        CROSS JOIN LATERAL (SELECT r.query::tsquery OFFSET 0) AS q(query)
        CROSS JOIN LATERAL (
            SELECT u.id, u.hit FROM (
                (\(walkBranch(Schema.inSearchWalkIndex("m"))))
                UNION ALL
                (\(walkBranch(Schema.inSearchWalkLongIndex("m"))))
            ) AS u ORDER BY u.id DESC LIMIT r.depth
        ) AS w
        GROUP BY r.n
        """

    /// A room's newest messages among those `condition` holds for (one of the walk's two
    /// indexes), each with whether it is a match.
    private static func walkBranch(_ condition: String) -> String {
        """
        SELECT m.id, (m.search @@ q.query AND m.deleted_at IS NULL
                AND m.sender_id <> ALL (ARRAY(SELECT blocked_id FROM user_blocks WHERE app_id = $1 AND blocker_id = $2))) AS hit
            FROM messages m WHERE m.app_id = $1 AND m.room_id = r.room AND m.id >= $6 AND \(condition)
            ORDER BY m.id DESC LIMIT r.depth
        """
    }
}
