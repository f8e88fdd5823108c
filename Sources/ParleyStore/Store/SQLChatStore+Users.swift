/// Users: create, update, get, list, delete.
extension SQLChatStore {
    public func createUser(app: String, _ user: NewUser) async throws -> ChatUser {
        try validateIdentifier(user.id, "user id")
        try validateIdentifier(user.name, "user name")
        try validateName(user.avatarURL, "avatar URL")
        try validateCustomData(user.customData)
        return try await write { context in
            try StoreError.remapping(.alreadyExists, to: StoreError(.alreadyExists, "user \(user.id) already exists")) {
                try context.execute(
                    """
                    INSERT INTO users (app_id, id, name, avatar_url, custom_data, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $6)
                    """,
                    [.text(app), .text(user.id), .text(user.name), .text(user.avatarURL), .text(user.customData), .integer(context.now)])
            }
            return ChatUser(
                id: user.id, name: user.name, avatarURL: user.avatarURL, customData: Self.customData(user.customData),
                createdAt: context.now, updatedAt: context.now)
        }
    }

    public func updateUser(app: String, id: String, _ patch: UserPatch) async throws -> ChatUser {
        if case .set(let name) = patch.name { try validateIdentifier(name, "user name") }
        if case .set(let url) = patch.avatarURL { try validateName(url, "avatar URL") }
        if case .set(let data) = patch.customData { try validateCustomData(data) }
        return try await write { context in
            var user = try Self.fetchUser(context, app: app, id: id)
            user.name = patch.name.applied(to: user.name)
            user.avatarURL = patch.avatarURL.applied(to: user.avatarURL)
            let customData = patch.customData.applied(to: Self.customDataText(user.customData))
            user.customData = Self.customData(customData)
            user.updatedAt = context.now
            try context.execute(
                """
                UPDATE users SET name = $3, avatar_url = $4, custom_data = $5, updated_at = $6 WHERE app_id = $1 AND id = $2
                """, [.text(app), .text(id), .text(user.name), .text(user.avatarURL), .text(customData), .integer(user.updatedAt)])
            return user
        }
    }

    public func user(app: String, id: String) async throws -> ChatUser {
        try await read { context in try Self.fetchUser(context, app: app, id: id) }
    }

    public func users(app: String, after: String?, limit: Int) async throws -> [ChatUser] {
        let limit = clampedLimit(limit, maximum: limits.historyPage)
        return try await read { context in
            try context.query(
                """
                SELECT \(Self.userColumns) FROM users WHERE app_id = $1 AND id > $2 ORDER BY id LIMIT $3
                """, [.text(app), .text(after ?? ""), .int(limit)], Self.decodeUser)
        }
    }

    public func users(app: String, sharingRoomsWith user: String, after: String?, limit: Int) async throws -> [ChatUser] {
        let limit = clampedLimit(limit, maximum: limits.historyPage)
        return try await read { context in
            try context.query(
                """
                SELECT \(Self.userColumns) FROM users WHERE app_id = $1 AND id > $2 AND (id = $3 OR EXISTS (
                    SELECT 1 FROM memberships mine JOIN memberships theirs
                        ON theirs.app_id = mine.app_id AND theirs.room_id = mine.room_id
                    WHERE mine.app_id = $1 AND mine.user_id = $3 AND theirs.user_id = users.id))
                ORDER BY id LIMIT $4
                """, [.text(app), .text(after ?? ""), .text(user), .int(limit)], Self.decodeUser)
        }
    }

    public func deleteUser(app: String, id: String) async throws -> ChatUser {
        try await write { context in
            let user = try Self.fetchUser(context, app: app, id: id)
            try context.execute(
                """
                UPDATE rooms SET member_count = member_count - 1
                WHERE app_id = $1 AND id IN (SELECT room_id FROM memberships WHERE app_id = $1 AND user_id = $2)
                """, [.text(app), .text(id)])
            try context.execute("DELETE FROM users WHERE app_id = $1 AND id = $2", [.text(app), .text(id)])
            try context.execute("DELETE FROM device_tokens WHERE app_id = $1 AND user_id = $2", [.text(app), .text(id)])
            try context.execute(
                """
                INSERT INTO user_token_cutoffs (app_id, user_id, valid_after) VALUES ($1, $2, $3)
                ON CONFLICT (app_id, user_id) DO UPDATE SET valid_after = excluded.valid_after
                """, [.text(app), .text(id), .integer(context.now)])
            return user
        }
    }

    public func tokensValidAfter(app: String, user userID: String) async throws -> Int64? {
        try await read { context in
            try context.queryFirst(
                "SELECT valid_after FROM user_token_cutoffs WHERE app_id = $1 AND user_id = $2",
                [.text(app), .text(userID)]
            ) { $0.int64(0) }
        }
    }
}
