import Testing

@testable import ParleyStore

/// PostgreSQL's two ways to the newest matches in scope — the newest-first walk over each room
/// and the GIN index over the rooms' tagged words — against each other and against the rows:
/// both must give the same candidates, the walk must give up (not guess) when it has not seen
/// enough, and the tsquery written in Swift must hold exactly the lexemes SQL made.
@Suite struct SearchPostgresPathsTests {
    /// Three rooms of alice at different paces, a room she is not in, a blocked sender, deleted
    /// messages: the walk at every depth either answers what the index answers or nothing.
    @Test func theWalkAnswersAsTheIndexDoesOrNotAtAll() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            for id in ["alice", "bob", "carol"] { try await store.makeUser("a", id) }
            let busy = try await store.makeRoom("a", creator: "alice", members: ["bob"])
            let calm = try await store.makeRoom("a", creator: "alice")
            let quiet = try await store.makeRoom("a", creator: "alice")
            let theirs = try await store.makeRoom("a", creator: "carol")
            for index in 0..<240 {
                let word = index % 3 == 0 ? "plum" : "pear"
                try await store.send("a", busy.id, from: index % 7 == 0 ? "bob" : "alice", "\(word) busy \(index)")
                if index % 4 == 0 { try await store.send("a", calm.id, from: "alice", "plum calm \(index)") }
                if index % 40 == 0 { try await store.send("a", quiet.id, from: "alice", "\(word) quiet \(index)") }
                if index % 5 == 0 { try await store.send("a", theirs.id, from: "carol", "plum pear theirs \(index)") }
            }
            let doomed = try await store.send("a", calm.id, from: "alice", "plum deleted")
            _ = try await store.deleteMessage(app: "a", room: calm.id, id: doomed.message.id, audit: nil)
            #expect(try await store.block(app: "a", blocker: "alice", blocked: "bob"))

            var answered = 0
            var declined = 0
            for text in ["plum", "pear", "busy", "quiet", "pe"] {
                let query = MessageSearchQuery(words: [text], lastWordIsPrefix: text == "pe")
                let outcomes = try await store.database.read { context in
                    var outcomes: [Bool] = []
                    let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", query)
                    #expect(Set(scope.rooms) == [busy.id, calm.id, quiet.id])
                    let rows = try Self.newestMatchesByScan(context, scope)
                    let indexed = try SQLChatStore.postgresIndexCandidates(context, app: "a", user: "alice", scope).map(\.id)
                    #expect(indexed == rows, "\(text): the index gives the newest matches in scope")
                    for depth in [1, 5, 20, 70, 100, 300] {
                        let walked = try SQLChatStore.searchWalk(context, app: "a", user: "alice", scope, depth: depth)
                        outcomes.append(walked != nil)
                        if let walked { #expect(walked == rows, "\(text) at depth \(depth): the walk gives the newest matches in scope") }
                    }
                    return outcomes
                }
                answered += outcomes.filter { $0 }.count
                declined += outcomes.filter { !$0 }.count
            }
            #expect(answered > 0 && declined > 0, "both outcomes of the walk are exercised")
        }
    }

    /// 10,000 messages over three rooms at paces of 70, 20 and 10%, a word in every third: the
    /// probe sees too few matches, the planned second walk reads each room down to one floor and
    /// answers exactly the newest matches in scope.
    @Test func thePlannedWalkAnswersAcrossRoomsOfUnequalPace() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await Self.seedThreeRooms(
                store, plumWhen: "g % 3 = 0", roomOf: "CASE WHEN g % 10 < 7 THEN $1 WHEN g % 10 < 9 THEN $2 ELSE $3 END")
            try await store.database.read { context in
                let (scope, depth, probe) = try Self.probePlum(context)
                #expect(scope.roomMessages == 10_000)
                let plan = try #require(
                    SearchWalkPlan(probe: probe, depth: depth, roomMessages: scope.roomMessages, budget: SQLChatStore.searchWalkDeepBudget))
                #expect(plan.floor != nil)
                let walked = try SQLChatStore.searchWalk(context, app: "a", user: "alice", scope, depth: depth)
                #expect(walked == (try Self.newestMatchesByScan(context, scope)))
            }
        }
    }

    /// The newest messages of three rooms hold the word twice as often as the older ones: the
    /// probe overstates its share, the second walk falls short, and a third planned from what the
    /// second saw answers exactly the newest matches in scope, without the index.
    @Test func aWalkThatFallsShortIsPlannedAgainFromWhatItSaw() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await Self.seedThreeRooms(
                store, plumWhen: "(g > 9742 AND g % 10 < 3) OR g % 20 < 3", roomOf: "(ARRAY[$1, $2, $3])[g % 3 + 1]")
            try await store.database.read { context in
                let (scope, depth, probe) = try Self.probePlum(context)
                let plan = try #require(
                    SearchWalkPlan(probe: probe, depth: depth, roomMessages: scope.roomMessages, budget: SQLChatStore.searchWalkDeepBudget))
                let second = try SQLChatStore.walkRooms(context, app: "a", user: "alice", scope, depths: plan.depths, from: plan.floor)
                #expect(SQLChatStore.newestMatches(second, depths: plan.depths, from: plan.floor) == nil, "the second walk falls short")
                let retry = try #require(
                    SearchWalkPlan(
                        probe: probe, depth: depth, roomMessages: scope.roomMessages, budget: SQLChatStore.searchWalkDeepBudget,
                        sample: SearchWalkSample(second)))
                #expect(retry.readsDeeper(than: plan))
                let walked = try SQLChatStore.searchWalk(context, app: "a", user: "alice", scope, depth: depth)
                #expect(walked != nil, "the third walk answers")
                #expect(walked == (try Self.newestMatchesByScan(context, scope)))
            }
        }
    }

    /// Messages whose vectors are too long for the walk's index (migration 18) are read from the
    /// table in their place: the walk at every depth answers the newest matches, long or short,
    /// in order, or nothing.
    @Test func theWalkReadsMessagesTooLongForItsIndexInTheirPlace() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            var long: [Int64] = []
            for index in 0..<90 {
                let word = index % 2 == 0 ? "plum" : "pear"
                if index % 3 == 0 {
                    let filler = (0..<150).map { "w\(index)x\($0)" }.joined(separator: " ")
                    long.append(try await store.send("a", room.id, from: "alice", "\(word) \(filler)").message.id)
                } else {
                    try await store.send("a", room.id, from: "alice", "\(word) short \(index)")
                }
            }
            let longIDs = long
            try await store.database.read { context in
                let inIndex = try context.query(
                    "SELECT id FROM messages WHERE app_id = 'a' AND \(Schema.inSearchWalkIndex("messages")) ORDER BY id", []
                ) { $0.int64(0) }
                #expect(inIndex.count == 60 && Set(inIndex).isDisjoint(with: longIDs), "every long vector is over the index's bound")
                let plans = try context.query(
                    "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'messages' AND indexname LIKE 'messages_room_search%' ORDER BY 1",
                    []
                ) { $0.text(0) }
                #expect(plans.count == 2 && plans.contains { $0.contains("INCLUDE (sender_id, deleted_at, search)") })
                let ginOptions = try context.queryFirst(
                    "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = to_regclass(current_schema() || '.messages_search')",
                    []
                ) { $0.text(0) }
                #expect(ginOptions == "fastupdate=off", "no pending list for every per-room scan to read")
                for text in ["plum", "pear", "short", "w3x7"] {
                    let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: [text]))
                    let rows = try Self.newestMatchesByScan(context, scope)
                    #expect(!rows.isEmpty)
                    for depth in [4, 10, 33, 100] {
                        let walked = try SQLChatStore.searchWalk(context, app: "a", user: "alice", scope, depth: depth)
                        if let walked { #expect(walked == rows, "\(text) at depth \(depth)") }
                        if depth == 100 { #expect(walked == rows, "\(text): a walk through the whole room answers") }
                    }
                }
            }
        }
    }

    /// A tag only narrows the index scan: a message whose words carry the tag of a room of the
    /// caller (as a hash collision would) is still checked against its real room, on both paths.
    @Test func bothPathsCheckTheRoomOfEveryRowNotOnlyItsLexeme() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            for id in ["alice", "carol"] { try await store.makeUser("a", id) }
            let mine = try await store.makeRoom("a", creator: "alice")
            let theirs = try await store.makeRoom("a", creator: "carol")
            let ours = try await store.send("a", mine.id, from: "alice", "collision ahead")
            try await store.send("a", theirs.id, from: "carol", "collision course")
            try await Self.tagMessages(of: theirs.id, as: mine.id, store)
            try await store.database.read { context in
                let tagged = try context.queryFirst(
                    "SELECT count(*) FROM messages WHERE search @@ $1::tsquery",
                    [.text(PostgresSearchScope(prefix: false, lexemes: ["collision"]).roomQuery(Self.tag(context, mine.id)))]
                ) { $0.int(0) }
                #expect(tagged == 2, "both messages hold the word behind the caller's room's tag")
                let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: ["collision"]))
                let indexed = try SQLChatStore.postgresIndexCandidates(context, app: "a", user: "alice", scope)
                #expect(indexed.map(\.id) == [ours.message.id], "only the message of the caller's room")
                let walked = try SQLChatStore.searchWalk(context, app: "a", user: "alice", scope, depth: 10)
                #expect(walked?.count == 1)
            }
        }
    }

    /// Whatever the lexemes hold, each is one operand of the tsquery: quotes and backslashes
    /// cannot close it or make operators.
    @Test func lexemesAreQuotedAsOneOperandEach() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            let lexemes = ["it's", "back\\slash", "a & b | !c", "'", "x:*", "# (y)"]
            let query = PostgresSearchScope(prefix: false, lexemes: lexemes).roomQuery("")
            let (nodes, matchesAll, matchesWithoutOne) = try await store.database.read { context in
                let nodes = try context.queryFirst("SELECT numnode($1::tsquery)", [.text(query)]) { $0.int(0) }
                let all = try context.queryFirst(
                    "SELECT $1::tsquery @@ array_to_tsvector($2::text[])", [.text(query), .text(SQLChatStore.postgresArray(lexemes))]
                ) { $0.text(0) }
                let withoutOne = try lexemes.indices.map { index in
                    var fewer = lexemes
                    fewer.remove(at: index)
                    return try context.queryFirst(
                        "SELECT $1::tsquery @@ array_to_tsvector($2::text[])", [.text(query), .text(SQLChatStore.postgresArray(fewer))]
                    ) { $0.text(0) }
                }
                return (nodes, all, withoutOne)
            }
            #expect(nodes == 2 * lexemes.count - 1, "each lexeme one operand, AND-ed")
            #expect(matchesAll == "t")
            #expect(matchesWithoutOne.allSatisfy { $0 == "f" }, "every lexeme is needed, as written")
        }
    }

    /// Only the page's messages are read whole, in the order ranked, with their scores; one
    /// deleted after its candidate was read, or of another app, is left out.
    @Test func thePageIsReadInRankOrderWithoutDeletedMessages() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await store.makeUser("a", "alice")
            let room = try await store.makeRoom("a", creator: "alice")
            let first = try await store.send("a", room.id, from: "alice", "plum one")
            let second = try await store.send("a", room.id, from: "alice", "plum two")
            let doomed = try await store.send("a", room.id, from: "alice", "plum three")
            _ = try await store.deleteMessage(app: "a", room: room.id, id: doomed.message.id, audit: nil)
            let ranked: [(Int64, Double)] = [(first.message.id, 3), (doomed.message.id, 2), (second.message.id, 1)]
            let hits = try await store.database.read { context in try SQLChatStore.postgresHits(context, app: "a", ranked[...]) }
            #expect(hits.map(\.message.id) == [first.message.id, second.message.id])
            #expect(hits.map(\.score) == [3, 1])
            #expect(hits.first?.message.parts == [.text("plum one")])
            let elsewhere = try await store.database.read { context in try SQLChatStore.postgresHits(context, app: "b", ranked[...]) }
            #expect(elsewhere.isEmpty, "ids of another app's messages read nothing")
        }
    }

    /// Each room's query asks for every word behind the room's tag, the last as a prefix when
    /// asked.
    @Test func eachRoomsQueryIsTheWordsBehindItsTag() {
        var scope = PostgresSearchScope(prefix: true, rooms: ["r1", "r2"], roomTags: ["0123abcd", "4567ef00"], lexemes: ["w", "pre"])
        #expect(scope.roomQueries == ["'0123abcdw' & '0123abcdpre':*", "'4567ef00w' & '4567ef00pre':*"])
        scope.prefix = false
        #expect(scope.roomQuery("0123abcd") == "'0123abcdw' & '0123abcdpre'")
    }

    /// Each word of a vector stands behind its room's tag, which has a fixed width (so a prefix
    /// stays within one room's words), and a vector follows its message to another room.
    @Test func aVectorHoldsItsWordsBehindItsRoomsTag() async throws {
        guard TestEngine.available.contains(.postgres) else { return }
        try await withStore(.postgres) { store in
            try await store.makeUser("a", "alice")
            let first = try await store.makeRoom("a", creator: "alice")
            let second = try await store.makeRoom("a", creator: "alice")
            let sent = try await store.send("a", first.id, from: "alice", "Tagged tagged words")
            let vector = { () async throws -> String? in
                try await store.database.read { context in
                    try context.queryFirst("SELECT search::text FROM messages WHERE id = $1", [.integer(sent.message.id)]) { $0.text(0) }
                }
            }
            let (firstTag, secondTag) = try await store.database.read { context in
                (try Self.tag(context, first.id), try Self.tag(context, second.id))
            }
            #expect(firstTag.count == SQLChatStore.searchTagLength && secondTag.count == SQLChatStore.searchTagLength)
            #expect(firstTag != secondTag)
            #expect(try await vector() == "'\(firstTag)tagged':1,2 '\(firstTag)words':3")
            try await store.database.write { context in
                try context.execute("UPDATE messages SET room_id = $1 WHERE id = $2", [.text(second.id), .integer(sent.message.id)])
            }
            #expect(try await vector() == "'\(secondTag)tagged':1,2 '\(secondTag)words':3")
        }
    }

    /// A second walk is planned only when it stays within its budget and reads fewer messages
    /// than the index would hand over (the rooms' matches at the share the probe saw).
    @Test func aSecondWalkIsPlannedOnlyWhenItReadsLessThanTheIndexWould() throws {
        // 50 rooms at one pace (a message every 50 ids in each), 5 read from each by the probe.
        func probe(_ matches: Int) -> [SearchWalkRoom] {
            (0..<50).map { room in
                let newest = Int64(100_000 - room)
                return SearchWalkRoom(read: 5, oldest: newest - 200, newest: newest, matches: room < matches ? [newest] : [])
            }
        }
        func plan(_ matches: Int, held: Int = 50_000) -> SearchWalkPlan? {
            SearchWalkPlan(probe: probe(matches), depth: 5, roomMessages: held, budget: 6_144)
        }
        #expect(plan(0) == nil, "no share known")
        #expect(plan(10) == nil, "4%: 7,500 reads, over budget")
        #expect(plan(25) != nil, "10%: 3,000 reads")
        // 3,000 reads against the index's matches at 10% of what the rooms hold, each costing indexCost reads.
        let even = Int(3_000 / SearchWalkPlan.indexCost * 10)
        #expect(plan(25, held: even * 9 / 10) == nil, "fewer matches than 3,000 reads cost: the index answers")
        #expect(plan(25, held: even * 11 / 10) != nil, "more matches than 3,000 reads cost: the walk answers")
        // The floor puts about margin × limit / share messages above it, spread over the rooms.
        let planned = try #require(plan(25))
        let floor = try #require(planned.floor)
        let above = probe(25).reduce(0.0) { $0 + SearchWalkPlan.expected($1, pace: SearchWalkPlan.pace($1, depth: 5), above: floor) }
        #expect(abs(above - 3_000) < 10)
        #expect(planned.depths.allSatisfy { (180...200).contains($0) }, "3 × 60 + slack in every room")
    }

    /// Rooms of unequal pace are read to unequal depths down to one floor; a room read to its
    /// end by the probe is read whole again; rooms too small for the wanted reads are read whole.
    @Test func aBusyRoomIsReadDeeperThanACalmOneDownToTheSameFloor() throws {
        let busy = SearchWalkRoom(read: 10, oldest: 9_991, newest: 10_000, matches: [9_995, 9_993])
        let calm = SearchWalkRoom(read: 10, oldest: 9_001, newest: 9_990, matches: [9_500])
        let tiny = SearchWalkRoom(read: 3, oldest: 5, newest: 900, matches: [900])
        let plan = try #require(SearchWalkPlan(probe: [busy, calm, tiny], depth: 10, roomMessages: 100_000, budget: 6_144))
        // 4 matches in 23 reads: 1.5 × 200 × 23 / 4 = 1,725 messages wanted, at 8/9 + 8/989 per id.
        let floor = try #require(plan.floor)
        #expect((10_000 - 1_935)...(10_000 - 1_910) ~= floor)
        #expect(plan.depths[0] > 10 * plan.depths[1], "the busy room is read far deeper")
        #expect(plan.depths[2] == 3 + SearchWalkPlan.slack)
        let small = try #require(SearchWalkPlan(probe: [busy, calm], depth: 10, roomMessages: 100_000, budget: 1_000_000_000))
        #expect(small.floor != nil)
        let whole = try #require(
            SearchWalkPlan(
                probe: [SearchWalkRoom(read: 10, oldest: 1, newest: 10, matches: [10])], depth: 10, roomMessages: 50_000, budget: 6_144))
        #expect(whole.floor == nil, "3,000 messages wanted, 10 by the room's pace: read it from its first message")
    }

    /// A share seen over more messages replaces the probe's: a lower one plans a lower floor, and
    /// a plan reads deeper than another only below its floor.
    @Test func aSampledShareMovesTheFloor() throws {
        let rooms = (0..<50).map { room in
            let newest = Int64(100_000 - room)
            return SearchWalkRoom(read: 5, oldest: newest - 200, newest: newest, matches: room < 25 ? [newest] : [])
        }
        let probed = try #require(SearchWalkPlan(probe: rooms, depth: 5, roomMessages: 50_000, budget: 6_144))
        #expect(SearchWalkSample(rooms) == SearchWalkSample(read: 250, matches: 25))
        let sampled = try #require(
            SearchWalkPlan(probe: rooms, depth: 5, roomMessages: 50_000, budget: 6_144, sample: SearchWalkSample(read: 3_000, matches: 200))
        )
        #expect(sampled.readsDeeper(than: probed) && !probed.readsDeeper(than: sampled))
        let probedFloor = try #require(probed.floor)
        let sampledFloor = try #require(sampled.floor)
        // 10% → 3,000 messages above the floor; 6.7% → 4,500: 1,500 more at a pace of 50 rooms
        // × 3 messages per 200 ids (``SearchWalkPlan/pace(_:depth:)``), 2,000 ids lower.
        #expect(abs(Double(probedFloor - sampledFloor) - 2_000) < 10)
        #expect(
            SearchWalkPlan(probe: rooms, depth: 5, roomMessages: 50_000, budget: 6_144, sample: SearchWalkSample(read: 3_000, matches: 0))
                == nil)
        var whole = sampled
        whole.floor = nil
        #expect(whole.readsDeeper(than: sampled) && !sampled.readsDeeper(than: whole) && !whole.readsDeeper(than: whole))
    }

    /// With a floor, a room read to fewer than its depth is known down to the floor, one read to
    /// its depth only down to its oldest message read.
    @Test func underAFloorOnlyTheMatchesAboveEveryCutCount() {
        let limit = MessageSearchQuery.candidateLimit
        let many = SearchWalkRoom(read: 300, oldest: 1_000, newest: 2_000, matches: (1_000..<1_000 + Int64(limit)).map { $0 })
        let cut = SearchWalkRoom(read: 50, oldest: 1_100, newest: 1_900, matches: [])
        #expect(SQLChatStore.newestMatches([many, cut], depths: [400, 100], from: 1_000)?.count == limit)
        #expect(SQLChatStore.newestMatches([many, cut], depths: [400, 50], from: 1_000) == nil, "the cut room hides what is below 1,100")
        #expect(SQLChatStore.newestMatches([many], depths: [400], from: 1_001) == nil, "one match short above the floor")
        #expect(SQLChatStore.newestMatches([cut], depths: [100], from: nil) == [], "read whole: nothing there")
    }

    /// Pure logic of the walk: matches newer than the highest floor are all known.
    @Test func theWalkAnswersOnlyWhenEveryNewerMatchIsKnown() {
        let limit = MessageSearchQuery.candidateLimit
        let full = (1...Int64(limit)).map { 1_000 + $0 }
        // One room read to its end holding all the matches, another read to depth with none.
        let exhausted = SearchWalkRoom(read: 3, oldest: 1, newest: 1_200, matches: full)
        #expect(SQLChatStore.newestMatches([exhausted], depth: 5) == Array(full.reversed()))
        // A room read to depth whose floor is above some matches: those cannot be counted.
        let deep = SearchWalkRoom(read: 5, oldest: 1_100, newest: 1_300, matches: [])
        #expect(SQLChatStore.newestMatches([exhausted, deep], depth: 5) == nil)
        let low = SearchWalkRoom(read: 5, oldest: 10, newest: 20, matches: [])
        #expect(SQLChatStore.newestMatches([exhausted, low], depth: 5) == Array(full.reversed()))
        // Two rooms read to depth: below the busier one's floor its matches are unknown, so the
        // older room's matches down there cannot fill the page, however many they are.
        let busy = SearchWalkRoom(read: 250, oldest: 1_000, newest: 1_300, matches: (1_000..<1_150).map { $0 })
        let older = SearchWalkRoom(read: 250, oldest: 1, newest: 2_100, matches: (1..<61).map { $0 * 10 })
        #expect(SQLChatStore.newestMatches([busy, older], depth: 250) == nil)
        let olderFull = SearchWalkRoom(read: 250, oldest: 1, newest: 2_100, matches: (1_000..<1_050).map { $0 * 2 })
        #expect(SQLChatStore.newestMatches([busy, olderFull], depth: 250)?.count == limit)
        // Fewer matches than the limit, every room read to its end: all of them.
        #expect(SQLChatStore.newestMatches([SearchWalkRoom(read: 2, oldest: 7, newest: 9, matches: [9, 8])], depth: 5) == [9, 8])
    }

    /// Alice and three rooms of hers holding 10,000 messages written in one statement: message
    /// `g` (1...10,000) goes to the room `roomOf` picks among `$1`–`$3` and says plum where
    /// `plumWhen` holds, pear otherwise; the rooms' last `seq` is set to match.
    static func seedThreeRooms(_ store: SQLChatStore, plumWhen: String, roomOf: String) async throws {
        try await store.makeUser("a", "alice")
        let rooms = [
            try await store.makeRoom("a", creator: "alice"), try await store.makeRoom("a", creator: "alice"),
            try await store.makeRoom("a", creator: "alice")
        ].map(\.id)
        try await store.database.write { context in
            try context.execute(
                """
                INSERT INTO messages (app_id, room_id, seq, sender_id, parts, created_at)
                SELECT 'a', room, row_number() OVER (PARTITION BY room ORDER BY g), 'alice',
                    '[{"type":"text","text":"' || CASE WHEN \(plumWhen) THEN 'plum' ELSE 'pear' END || ' filler ' || g || '"}]', g
                FROM (SELECT g, \(roomOf) AS room FROM generate_series(1, 10000) AS g) AS s
                ORDER BY g
                """, [.text(rooms[0]), .text(rooms[1]), .text(rooms[2])])
            try context.execute(
                "UPDATE rooms SET last_seq = (SELECT max(seq) FROM messages m WHERE m.room_id = rooms.id) WHERE id = ANY ($1::text[])",
                [.text(SQLChatStore.postgresArray(rooms))])
        }
    }

    /// Alice's scope for "plum", the probe's depth and what the probe read, checking that the
    /// probe alone cannot answer.
    private static func probePlum(_ context: SQLContext) throws -> (PostgresSearchScope, Int, [SearchWalkRoom]) {
        let scope = try SQLChatStore.postgresSearchScope(context, app: "a", user: "alice", MessageSearchQuery(words: ["plum"]))
        let depth = SQLChatStore.searchWalkDepth(rooms: scope.rooms.count)
        let depths = Array(repeating: depth, count: scope.rooms.count)
        let probe = try SQLChatStore.walkRooms(context, app: "a", user: "alice", scope, depths: depths, from: nil)
        #expect(SQLChatStore.newestMatches(probe, depths: depths, from: nil) == nil, "the probe alone cannot answer")
        return (scope, depth, probe)
    }

    /// The newest candidateLimit matches in scope by a plain scan of the rows, their words read
    /// without the tags, newest first.
    static func newestMatchesByScan(_ context: SQLContext, _ scope: PostgresSearchScope) throws -> [Int64] {
        try context.query(
            """
            SELECT id FROM messages m
            WHERE app_id = 'a' AND room_id = ANY ($1::text[]) AND deleted_at IS NULL
                AND array_to_tsvector(ARRAY(SELECT substr(lexeme, \(SQLChatStore.searchTagLength + 1)) FROM unnest(search))) @@ $2::tsquery
                AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.app_id = 'a' AND b.blocker_id = 'alice' AND b.blocked_id = m.sender_id)
            ORDER BY id DESC LIMIT \(MessageSearchQuery.candidateLimit)
            """, [.text(SQLChatStore.postgresArray(scope.rooms)), .text(scope.roomQuery(""))]
        ) { $0.int64(0) }
    }

    /// Gives every message of room `room` of app `a` the words of its own text behind the tag
    /// of room `tag` too, as a hash collision between the two rooms' tags would.
    static func tagMessages(of room: String, as tag: String, _ store: SQLChatStore) async throws {
        try await store.database.write { context in
            try context.execute(
                "UPDATE messages SET search = search || parley_search_vector($1, $2, parts) WHERE app_id = $1 AND room_id = $3",
                [.text("a"), .text(tag), .text(room)])
        }
    }

    /// `parley_search_tag` of room `room` of app `a`.
    static func tag(_ context: SQLContext, _ room: String) throws -> String {
        try context.queryFirst("SELECT parley_search_tag('a', $1)", [.text(room)]) { $0.text(0) } ?? ""
    }
}
