import ParleyWireCore

/// A room of one app: public, private or the direct room of two users.
public struct ChatRoom: Sendable, Equatable, Identifiable {
    /// Who may find and join a room.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Listed and joinable by every user of the app.
        case `public`
        /// Members are added by its admins.
        case `private`
        /// The room of exactly two users; one per pair.
        case direct
    }

    /// The room's id, unique within the app.
    public var id: String
    /// Its kind.
    public var kind: Kind
    /// Its name, if it has one (direct rooms usually don't).
    public var name: String?
    /// The app's own data about the room.
    public var customData: JSONValue?
    /// The user who created it, if one did.
    public var createdBy: String?
    /// The two users of a direct room, in ascending order; empty otherwise.
    public var directUserIDs: [String]
    /// The seq of the room's latest message (0 when empty).
    public var lastSeq: Int64
    /// The time of the latest message (the creation time before that), milliseconds since the Unix epoch.
    public var lastActivityAt: Int64
    /// How many members it has.
    public var memberCount: Int
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// When the room's name, kind or custom data last changed.
    public var updatedAt: Int64

    /// Creates a room value; `updatedAt` defaults to `createdAt`.
    public init(
        id: String, kind: Kind, name: String? = nil, customData: JSONValue? = nil, createdBy: String? = nil,
        directUserIDs: [String] = [], lastSeq: Int64 = 0, lastActivityAt: Int64 = 0, memberCount: Int = 0,
        createdAt: Int64 = 0, updatedAt: Int64? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.customData = customData
        self.createdBy = createdBy
        self.directUserIDs = directUserIDs
        self.lastSeq = lastSeq
        self.lastActivityAt = lastActivityAt
        self.memberCount = memberCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// The other user of a direct room, seen by `userID`.
    public func directPartner(of userID: String) -> String? {
        guard kind == .direct else { return nil }
        return directUserIDs.first { $0 != userID } ?? directUserIDs.first
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "room")
        let kindText = try r.string("kind")
        guard let kind = Kind(rawValue: kindText) else { throw ParleyError(.decoding, "room: unknown kind \(kindText)") }
        var users: [String] = []
        for item in try r.arrayIfPresent("direct_user_ids") {
            guard let user = item.stringValue else { throw ParleyError(.decoding, "room: direct_user_ids holds a non-string") }
            users.append(user)
        }
        let createdAt = try r.int64IfPresent("created_at") ?? 0
        self.init(
            id: try r.string("id"), kind: kind, name: try r.stringIfPresent("name"),
            customData: r.value("custom_data").flatMap { $0.isNull ? nil : $0 }, createdBy: try r.stringIfPresent("created_by"),
            directUserIDs: users, lastSeq: try r.int64IfPresent("last_seq") ?? 0,
            lastActivityAt: try r.int64IfPresent("last_activity_at") ?? 0,
            memberCount: Int(try r.int64IfPresent("member_count") ?? 0), createdAt: createdAt,
            updatedAt: try r.int64IfPresent("updated_at") ?? createdAt)
    }

    /// The API's form.
    public var json: JSONValue {
        .object([
            "id": .string(id), "kind": .string(kind.rawValue), "name": .optional(name),
            "custom_data": customData ?? .null, "created_by": .optional(createdBy),
            "direct_user_ids": .array(directUserIDs.map(JSONValue.string)), "last_seq": .int64(lastSeq),
            "last_activity_at": .int64(lastActivityAt), "member_count": .int(memberCount),
            "created_at": .int64(createdAt), "updated_at": .int64(updatedAt)
        ])
    }
}
