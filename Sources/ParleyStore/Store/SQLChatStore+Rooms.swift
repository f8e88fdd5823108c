/// Rooms: public and private rooms, direct rooms, updates and deletion.
extension SQLChatStore {
    public func createRoom(app: String, _ room: NewRoom) async throws -> Room {
        guard room.kind != .direct else {
            throw StoreError(.invalidArgument, "direct rooms are created with createDirectRoom")
        }
        let id = room.id ?? IdentifierGenerator.make()
        try validateIdentifier(id, "room id")
        try validateName(room.name, "room name")
        try validateCustomData(room.customData)
        if let creator = room.creatorID { try validateIdentifier(creator, "creator id") }
        return try await write { context in
            try StoreError.remapping(.alreadyExists, to: StoreError(.alreadyExists, "room \(id) already exists")) {
                try context.execute(
                    """
                    INSERT INTO rooms (app_id, id, kind, name, custom_data, created_by, last_seq, last_activity_at,
                                       member_count, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, 0, $7, 0, $7, $7)
                    """,
                    [
                        .text(app), .text(id), .text(room.kind.rawValue), .text(room.name), .text(room.customData),
                        .text(room.creatorID), .integer(context.now)
                    ])
            }
            // Checked after the insert: on PostgreSQL an insert racing a deletion of the same id
            // waits for that deletion to commit, and this read then sees its tombstone.
            try Self.refuseRetiredRoomID(context, app: app, id: id)
            var members: [(String, MemberRole)] = room.creatorID.map { [($0, .admin)] } ?? []
            for member in room.memberIDs where !members.contains(where: { $0.0 == member }) {
                members.append((member, .member))
            }
            for (user, role) in members {
                _ = try Self.insertMembership(context, app: app, room: id, user: user, role: role, readSeq: 0)
            }
            return Room(
                id: id, kind: room.kind, name: room.name, customData: Self.customData(room.customData), createdBy: room.creatorID,
                directUserIDs: [], lastSeq: 0, lastActivityAt: context.now, memberCount: members.count,
                createdAt: context.now, updatedAt: context.now)
        }
    }

    public func createDirectRoom(app: String, between first: String, and second: String) async throws -> DirectRoomResult {
        try validateIdentifier(first, "user id")
        try validateIdentifier(second, "user id")
        guard first != second else { throw StoreError(.invalidArgument, "a direct room needs two different users") }
        let (low, high) = first < second ? (first, second) : (second, first)
        return try await write { context in
            if let existing = try Self.fetchDirectRoom(context, app: app, low: low, high: high) {
                return DirectRoomResult(room: try Self.restoreDirectMembers(context, app: app, room: existing), created: false)
            }
            do {
                let room = try context.withSavepoint {
                    try Self.insertDirectRoom(context, app: app, low: low, high: high)
                }
                return DirectRoomResult(room: room, created: true)
            } catch let error as StoreError where error.code == .alreadyExists {
                // Another node created the pair's room between our lookup and our insert.
                guard let existing = try Self.fetchDirectRoom(context, app: app, low: low, high: high) else { throw error }
                return DirectRoomResult(room: existing, created: false)
            }
        }
    }

    private static func fetchDirectRoom(_ context: SQLContext, app: String, low: String, high: String) throws -> Room? {
        try context.queryFirst(
            """
            SELECT \(roomColumns) FROM rooms WHERE app_id = $1 AND direct_user_low = $2 AND direct_user_high = $3
            """, [.text(app), .text(low), .text(high)]
        ) { try decodeRoom($0) }
    }

    /// Puts a direct room's users back in it if one left or was deleted and re-created meanwhile,
    /// so "the pair's room" always has the pair as members.
    private static func restoreDirectMembers(_ context: SQLContext, app: String, room: Room) throws -> Room {
        var room = room
        for user in room.directUserIDs where try fetchMembership(context, app: app, room: room.id, user: user) == nil {
            _ = try insertMembership(context, app: app, room: room.id, user: user, role: .member, readSeq: room.lastSeq)
            room.memberCount += 1
        }
        return room
    }

    private static func insertDirectRoom(_ context: SQLContext, app: String, low: String, high: String) throws -> Room {
        let id = IdentifierGenerator.make()
        try context.execute(
            """
            INSERT INTO rooms (app_id, id, kind, direct_user_low, direct_user_high, last_seq, last_activity_at,
                               member_count, created_at, updated_at)
            VALUES ($1, $2, 'direct', $3, $4, 0, $5, 0, $5, $5)
            """, [.text(app), .text(id), .text(low), .text(high), .integer(context.now)])
        _ = try insertMembership(context, app: app, room: id, user: low, role: .member, readSeq: 0)
        _ = try insertMembership(context, app: app, room: id, user: high, role: .member, readSeq: 0)
        return Room(
            id: id, kind: .direct, name: nil, customData: nil, createdBy: nil, directUserIDs: [low, high],
            lastSeq: 0, lastActivityAt: context.now, memberCount: 2, createdAt: context.now, updatedAt: context.now)
    }

    public func room(app: String, id: String) async throws -> Room {
        try await read { context in try Self.fetchRoom(context, app: app, id: id) }
    }

    public func publicRooms(app: String, after: String?, limit: Int) async throws -> [Room] {
        let limit = clampedLimit(limit, maximum: limits.historyPage)
        return try await read { context in
            try context.query(
                """
                SELECT \(Self.roomColumns) FROM rooms WHERE app_id = $1 AND kind = 'public' AND id > $2 ORDER BY id LIMIT $3
                """, [.text(app), .text(after ?? ""), .int(limit)]
            ) { try Self.decodeRoom($0) }
        }
    }

    public func updateRoom(app: String, id: String, _ patch: RoomPatch) async throws -> Room {
        if case .set(let name) = patch.name { try validateName(name, "room name") }
        if case .set(let data) = patch.customData { try validateCustomData(data) }
        if case .set(.direct) = patch.kind { throw StoreError(.invalidArgument, "a room cannot become direct") }
        return try await write(app: app, room: id) { context in
            var room = try Self.fetchRoom(context, app: app, id: id)
            if room.kind == .direct, case .set(let kind) = patch.kind, kind != .direct {
                throw StoreError(.conflict, "a direct room cannot become \(kind.rawValue)")
            }
            room.name = patch.name.applied(to: room.name)
            let customData = patch.customData.applied(to: Self.customDataText(room.customData))
            room.customData = Self.customData(customData)
            room.kind = patch.kind.applied(to: room.kind)
            room.updatedAt = context.now
            try context.execute(
                """
                UPDATE rooms SET name = $3, custom_data = $4, kind = $5, updated_at = $6 WHERE app_id = $1 AND id = $2
                """, [.text(app), .text(id), .text(room.name), .text(customData), .text(room.kind.rawValue), .integer(room.updatedAt)])
            return room
        }
    }

    public func deleteRoom(app: String, id: String) async throws -> DeletedRoom {
        try await write(app: app, room: id) { context in
            let room = try Self.fetchRoom(context, app: app, id: id)
            let members = try context.query(
                "SELECT user_id FROM memberships WHERE app_id = $1 AND room_id = $2 ORDER BY user_id",
                [.text(app), .text(id)]
            ) { $0.text(0) }
            let attachments = try context.query(
                """
                SELECT \(Self.attachmentColumns) FROM attachments WHERE app_id = $1 AND room_id = $2 ORDER BY id
                """, [.text(app), .text(id)], Self.decodeAttachment)
            try context.execute("DELETE FROM rooms WHERE app_id = $1 AND id = $2", [.text(app), .text(id)])
            try context.execute(
                """
                INSERT INTO retired_rooms (app_id, id, deleted_at) VALUES ($1, $2, $3) ON CONFLICT (app_id, id) DO NOTHING
                """, [.text(app), .text(id), .integer(context.now)])
            return DeletedRoom(room: room, memberIDs: members, attachments: attachments)
        }
    }

    /// `retired` when `id` belonged to a deleted room of the app: room ids are never reused.
    private static func refuseRetiredRoomID(_ context: SQLContext, app: String, id: String) throws {
        let retired =
            try context.queryFirst(
                "SELECT 1 FROM retired_rooms WHERE app_id = $1 AND id = $2",
                [.text(app), .text(id)]
            ) { _ in true } ?? false
        if retired { throw StoreError(.retired, "room id \(id) belonged to a deleted room and is never reused") }
    }
}
