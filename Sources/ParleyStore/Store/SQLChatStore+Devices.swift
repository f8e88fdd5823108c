/// Push device tokens: register, remove, list a user's.
extension SQLChatStore {
    public func registerDevice(app: String, user userID: String, token: String, platform: String) async throws -> DeviceToken {
        try validateIdentifier(token, "device token")
        guard let service = DeviceToken.Platform(rawValue: platform) else {
            throw StoreError(.invalidArgument, "unknown push platform \(platform)")
        }
        return try await write { context in
            _ = try Self.fetchUser(context, app: app, id: userID)
            // A token is one install: a new user signing in on the device takes it over.
            try context.execute(
                """
                INSERT INTO device_tokens (app_id, token, user_id, platform, updated_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (app_id, token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform,
                    updated_at = excluded.updated_at
                """, [.text(app), .text(token), .text(userID), .text(platform), .integer(context.now)])
            return DeviceToken(token: token, userID: userID, platform: service, updatedAt: context.now)
        }
    }

    public func removeDevice(app: String, user userID: String, token: String) async throws -> Bool {
        try await write { context in
            try context.execute(
                "DELETE FROM device_tokens WHERE app_id = $1 AND token = $2 AND user_id = $3",
                [.text(app), .text(token), .text(userID)]) > 0
        }
    }

    public func devices(app: String, user userID: String) async throws -> [DeviceToken] {
        try await read { context in
            let devices = try context.query(
                """
                SELECT token, user_id, platform, updated_at FROM device_tokens WHERE app_id = $1 AND user_id = $2 ORDER BY token
                """, [.text(app), .text(userID)]
            ) { row in
                guard let platform = DeviceToken.Platform(rawValue: row.text(2)) else {
                    throw StoreError(.internal, "unknown push platform \(row.text(2)) in the database")
                }
                return DeviceToken(token: row.text(0), userID: row.text(1), platform: platform, updatedAt: row.int64(3))
            }
            if devices.isEmpty { _ = try Self.fetchUser(context, app: app, id: userID) }
            return devices
        }
    }
}
