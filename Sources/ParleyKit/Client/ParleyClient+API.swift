import ParleyWireCore

/// The chat REST API.
extension ParleyClient {
    /// The signed-in user.
    public func me() async throws(ParleyError) -> ChatUser {
        try ChatUser(json: try await api.json("GET", "/v1/me"))
    }

    /// A user.
    public func user(_ id: String) async throws(ParleyError) -> ChatUser {
        try ChatUser(json: try await api.json("GET", ChatAPI.path("users", id)))
    }

    /// Changes the signed-in user's name or avatar.
    public func updateMe(name: String? = nil, avatarURL: String? = nil) async throws(ParleyError) -> ChatUser {
        let id = try await userID()
        var body = JSONObject()
        if let name { body["name"] = .string(name) }
        if let avatarURL { body["avatar_url"] = .string(avatarURL) }
        return try ChatUser(json: try await api.json("PATCH", ChatAPI.path("users", id), json: .object(body)))
    }

    /// The user's rooms, most recent activity first; the cache is refreshed with them.
    public func myRooms(limit: Int = 100) async throws(ParleyError) -> [RoomSummary] {
        let reply = try await api.json("GET", "/v1/me/rooms", query: [("limit", String(limit))])
        var rooms: [RoomSummary] = []
        for item in try JSONReader(reply, "rooms").array("rooms") { rooms.append(try RoomSummary(json: item)) }
        let user = try await userID()
        storeWrite { store throws(ParleyError) in try store.saveRooms(rooms, user: user) }
        return rooms
    }

    /// The user's rooms as last seen, from the local cache (works offline when the token
    /// names the user), most recent first.
    public func cachedRooms() async throws(ParleyError) -> [RoomSummary] {
        let user = try await userID()
        return try store.rooms(user: user)
    }

    /// A room's recent messages as the user last saw them, from the local cache, ascending by seq.
    public func cachedMessages(_ roomID: String) async throws(ParleyError) -> [ChatMessage] {
        let user = try await userID()
        return try store.messages(room: roomID, user: user)
    }

    /// Public rooms, by id.
    public func publicRooms(after: String? = nil, limit: Int = 100) async throws(ParleyError) -> [ChatRoom] {
        var query = [("limit", String(limit))]
        if let after { query.append(("after", after)) }
        let reply = try await api.json("GET", "/v1/rooms", query: query)
        var rooms: [ChatRoom] = []
        for item in try JSONReader(reply, "rooms").array("rooms") { rooms.append(try ChatRoom(json: item)) }
        return rooms
    }

    /// Creates a room; the user becomes its admin.
    public func createRoom(
        id: String? = nil, name: String?, kind: ChatRoom.Kind = .private, memberIDs: [String] = []
    ) async throws(ParleyError) -> ChatRoom {
        var body: JSONObject = ["kind": .string(kind.rawValue), "member_ids": .array(memberIDs.map(JSONValue.string))]
        if let id { body["id"] = .string(id) }
        if let name { body["name"] = .string(name) }
        return try ChatRoom(json: try await api.json("POST", "/v1/rooms", json: .object(body)))
    }

    /// The direct room with another user, created on first use.
    public func directRoom(with userID: String) async throws(ParleyError) -> ChatRoom {
        try ChatRoom(json: try await api.json("POST", "/v1/rooms/direct", json: .object(["user_id": .string(userID)])))
    }

    /// A room.
    public func room(_ id: String) async throws(ParleyError) -> ChatRoom {
        try ChatRoom(json: try await api.json("GET", ChatAPI.path("rooms", id)))
    }

    /// Joins a public room.
    public func join(_ roomID: String) async throws(ParleyError) {
        _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "join"))
    }

    /// Leaves a room.
    public func leave(_ roomID: String) async throws(ParleyError) {
        _ = try await api.call("POST", ChatAPI.path("rooms", roomID, "leave"))
    }

    /// Adds a member (room admins).
    public func addMember(_ userID: String, to roomID: String, role: MemberRole = .member) async throws(ParleyError) {
        _ = try await api.call(
            "POST", ChatAPI.path("rooms", roomID, "members"),
            json: .object(["user_id": .string(userID), "role": .string(role.rawValue)]))
    }

    /// Removes a member (room admins, or the member themself).
    public func removeMember(_ userID: String, from roomID: String) async throws(ParleyError) {
        _ = try await api.call("DELETE", ChatAPI.path("rooms", roomID, "members", userID))
    }

    /// A room's members.
    public func members(of roomID: String, limit: Int = 100) async throws(ParleyError) -> [Membership] {
        let reply = try await api.json("GET", ChatAPI.path("rooms", roomID, "members"), query: [("limit", String(limit))])
        var members: [Membership] = []
        for item in try JSONReader(reply, "members").array("members") { members.append(try Membership(json: item)) }
        return members
    }

    /// The most messages one history page can hold (the server's `limit` bound).
    public static let historyPageLimit = 100

    /// A page of history, ascending: the latest by default, else before or after a seq.
    public func history(
        _ roomID: String, before: Int64? = nil, after: Int64? = nil, limit: Int = 50
    ) async throws(ParleyError) -> MessagePage {
        var query = [("limit", String(limit))]
        if let before { query.append(("before", String(before))) }
        if let after { query.append(("after", String(after))) }
        let reader = try JSONReader(try await api.json("GET", ChatAPI.path("rooms", roomID, "messages"), query: query), "history")
        var messages: [ChatMessage] = []
        for item in try reader.array("messages") { messages.append(try ChatMessage(json: item)) }
        return MessagePage(messages: messages, hasMore: reader.value("has_more")?.boolValue ?? false)
    }

    /// Replaces a message's parts (its author).
    @discardableResult
    public func edit(messageID: Int64, in roomID: String, parts: [MessagePart]) async throws(ParleyError) -> ChatMessage {
        let message = try ChatMessage(
            json: try await api.json(
                "PATCH", ChatAPI.path("rooms", roomID, "messages", String(messageID)),
                json: .object(["parts": .array(parts.map(\.json))])))
        applyUpdate(message, deleted: false)
        return message
    }

    /// Deletes a message, leaving a tombstone (author or room admin).
    @discardableResult
    public func delete(messageID: Int64, in roomID: String) async throws(ParleyError) -> ChatMessage {
        let message = try ChatMessage(json: try await api.json("DELETE", ChatAPI.path("rooms", roomID, "messages", String(messageID))))
        applyUpdate(message, deleted: true)
        return message
    }

    /// Adds or removes the user's reaction; returns the message's counts as history shows them to the
    /// user (without the reactions of users they block).
    @discardableResult
    public func react(
        _ emoji: String, to messageID: Int64, in roomID: String, adding: Bool = true
    ) async throws(ParleyError) -> [ReactionCount] {
        let reply = try await api.json(
            adding ? "PUT" : "DELETE", ChatAPI.path("rooms", roomID, "messages", String(messageID), "reactions", emoji))
        let counts = try ReactionCount.list(try JSONReader(reply, "reactions").array("reactions"))
        emit(.reactions(messageID: messageID, reactions: counts), room: roomID)
        return counts
    }

    /// Every member's read cursor.
    public func cursors(in roomID: String) async throws(ParleyError) -> [ReadCursor] {
        let reply = try await api.json("GET", ChatAPI.path("rooms", roomID, "cursors"))
        var cursors: [ReadCursor] = []
        for item in try JSONReader(reply, "cursors").array("cursors") { cursors.append(try ReadCursor(json: item)) }
        return cursors
    }

    /// Whether a user is online.
    public func presence(of userID: String) async throws(ParleyError) -> PresenceStatus {
        try PresenceStatus(json: try await api.json("GET", ChatAPI.path("users", userID, "presence")))
    }

    /// Uploads a file of any type into a room under an optional display `name`; `progress`
    /// hears bytes sent of total. Send it with ``MessagePart/file(_:)`` (`FilePart(attachment)`),
    /// which carries the name, size and type to every reader, or ``MessagePart/attachment(id:)``.
    public func upload(
        _ bytes: [UInt8], contentType: String, to roomID: String, name: String? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws(ParleyError) -> Attachment {
        let reply = try await api.call(
            "POST", ChatAPI.path("rooms", roomID, "attachments"), query: name.map { [("name", $0)] } ?? [], body: bytes,
            contentType: contentType, progress: progress)
        do { return try Attachment(json: try JSONParser.parse(reply)) } catch let error as ParleyError { throw error } catch {
            throw ParleyError(.decoding, "upload answer is not JSON: \(error)")
        }
    }

    /// An attachment's metadata.
    public func attachment(_ id: String) async throws(ParleyError) -> Attachment {
        try Attachment(json: try await api.json("GET", ChatAPI.path("attachments", id)))
    }

    /// Deletes an attachment (the signed-in user's own upload, or any of a room they moderate):
    /// its file and thumbnail go and leave the app's quota; messages naming it keep their part.
    public func deleteAttachment(_ id: String) async throws(ParleyError) {
        _ = try await api.call("DELETE", ChatAPI.path("attachments", id))
    }

    /// An attachment's bytes.
    public func download(_ attachmentID: String) async throws(ParleyError) -> [UInt8] {
        try await api.call("GET", ChatAPI.path("attachments", attachmentID, "content"))
    }
}
