import ParleyWireCore

/// The rest of the REST API: changing and deleting rooms, member roles, single messages, the
/// user directory, push device tokens and marking everything read.
extension ParleyClient {
    /// Changes a room's name, kind (public or private) or custom data (room admins); arguments
    /// left `nil` stay as they are. Members hear ``RoomEvent/roomUpdated(_:)``.
    @discardableResult
    public func updateRoom(
        _ roomID: String, name: String? = nil, kind: ChatRoom.Kind? = nil,
        customData: JSONValue? = nil
    ) async throws(ParleyError) -> ChatRoom {
        var body = JSONObject()
        if let name { body["name"] = .string(name) }
        if let kind { body["kind"] = .string(kind.rawValue) }
        if let customData { body["custom_data"] = customData }
        return try ChatRoom(json: try await api.json("PATCH", ChatAPI.path("rooms", roomID), json: .object(body)))
    }

    /// Deletes a room with its messages and documents (room admins); members hear
    /// ``RoomEvent/roomDeleted`` and the room leaves every member's list. Its id is never reused.
    public func deleteRoom(_ roomID: String) async throws(ParleyError) {
        _ = try await api.call("DELETE", ChatAPI.path("rooms", roomID))
        if let user = currentUserID { storeWrite(roomID) { store throws(ParleyError) in try store.removeRoom(roomID, user: user) } }
    }

    /// Changes a member's role (room admins); members hear ``RoomEvent/memberUpdated(_:)``.
    /// The last admin cannot step down (`last_admin`).
    @discardableResult
    public func setRole(_ role: MemberRole, of userID: String, in roomID: String) async throws(ParleyError) -> Membership {
        try Membership(
            json: try await api.json(
                "PATCH", ChatAPI.path("rooms", roomID, "members", userID),
                json: .object(["role": .string(role.rawValue)])))
    }

    /// One message of a room (a tombstone if it was deleted).
    public func message(_ messageID: Int64, in roomID: String) async throws(ParleyError) -> ChatMessage {
        try ChatMessage(json: try await api.json("GET", ChatAPI.path("rooms", roomID, "messages", String(messageID))))
    }

    /// The users the signed-in user shares a room with (and the user themself), by id; pass the
    /// last id of a page as `after` for the next.
    public func users(after: String? = nil, limit: Int = 100) async throws(ParleyError) -> [ChatUser] {
        var query = [("limit", String(limit))]
        if let after { query.append(("after", after)) }
        let reply = try await api.json("GET", "/v1/users", query: query)
        var users: [ChatUser] = []
        for item in try JSONReader(reply, "users").array("users") { users.append(try ChatUser(json: item)) }
        return users
    }

    /// Tells the room the user stopped typing (the message was sent, the draft cleared): others
    /// drop the user from their typing list at once instead of at the notice's expiry.
    public func stopTyping(in roomID: String) async throws(ParleyError) {
        try closedFlag.check()
        // The next keystroke announces typing again without waiting out the throttle.
        typingSentAt[roomID] = nil
        _ = try await api.call("DELETE", ChatAPI.path("rooms", roomID, "typing"))
    }

    /// Marks every room with unread messages read up to its latest message, at once (no
    /// debounce); returns the ids of the rooms it moved.
    @discardableResult
    public func markAllRead() async throws(ParleyError) -> [String] {
        var moved: [String] = []
        for summary in try await myRooms() where summary.unreadCount > 0 || summary.readSeq < summary.room.lastSeq {
            let roomID = summary.id, seq = summary.room.lastSeq
            cursorTasks[roomID]?.cancel()
            cursorTasks[roomID] = nil
            cursorPending[roomID] = nil
            _ = try await api.call("PUT", ChatAPI.path("rooms", roomID, "cursor"), json: .object(["seq": .number(String(seq))]))
            cursorSent[roomID] = max(cursorSent[roomID] ?? 0, seq)
            moved.append(roomID)
        }
        return moved
    }

    /// Registers this device's push token for the signed-in user, so the server's notifications
    /// can reach it; a token another user had registered moves to this one. Call it whenever the
    /// system hands the app a token (it may change).
    @discardableResult
    public func registerDevice(token: String, platform: DeviceRegistration.Platform) async throws(ParleyError) -> DeviceRegistration {
        let id = try await userID()
        return try DeviceRegistration(
            json: try await api.json(
                "PUT", ChatAPI.path("users", id, "devices", token),
                json: .object(["platform": .string(platform.rawValue)])))
    }

    /// Removes this device's push token from the signed-in user (before signing out).
    public func unregisterDevice(token: String) async throws(ParleyError) {
        let id = try await userID()
        _ = try await api.call("DELETE", ChatAPI.path("users", id, "devices", token))
    }

    /// The signed-in user's registered push tokens.
    public func devices() async throws(ParleyError) -> [DeviceRegistration] {
        let id = try await userID()
        let reply = try await api.json("GET", ChatAPI.path("users", id, "devices"))
        var devices: [DeviceRegistration] = []
        for item in try JSONReader(reply, "devices").array("devices") { devices.append(try DeviceRegistration(json: item)) }
        return devices
    }
}
