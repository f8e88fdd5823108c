import ParleyWireCore

/// A room: public, private or the direct room of two users.
public struct ChatRoom: Sendable, Equatable, Identifiable {
    /// Who may find and join a room.
    public enum Kind: String, Sendable {
        /// Anyone in the app may join.
        case `public`
        /// Members are added by its admins.
        case `private`
        /// The room of exactly two users.
        case direct
    }

    /// The room's id.
    public var id: String
    /// Its kind.
    public var kind: Kind
    /// Its name, if it has one (direct rooms usually don't).
    public var name: String?
    /// The app's own data about the room.
    public var customData: JSONValue?
    /// The user who created it.
    public var createdBy: String?
    /// The two users of a direct room; empty otherwise.
    public var directUserIDs: [String]
    /// The seq of the room's latest message (0 when empty).
    public var lastSeq: Int64
    /// The time of the latest activity, milliseconds since the Unix epoch.
    public var lastActivityAt: Int64
    /// How many members it has.
    public var memberCount: Int
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64

    /// Creates a room value.
    public init(id: String, kind: Kind, name: String? = nil, customData: JSONValue? = nil, createdBy: String? = nil,
                directUserIDs: [String] = [], lastSeq: Int64 = 0, lastActivityAt: Int64 = 0, memberCount: Int = 0, createdAt: Int64 = 0) {
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
    }

    /// The other user of a direct room, seen by `userID`.
    public func directPartner(of userID: String) -> String? {
        guard kind == .direct else { return nil }
        return directUserIDs.first { $0 != userID } ?? directUserIDs.first
    }

    init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "room")
        guard let kind = Kind(rawValue: try r.string("kind")) else { throw ParleyError(.decoding, "room: unknown kind") }
        self.init(id: try r.string("id"), kind: kind, name: r.optionalString("name"),
                  customData: r.value("custom_data").flatMap { $0.isNull ? nil : $0 }, createdBy: r.optionalString("created_by"),
                  directUserIDs: (r.value("direct_user_ids")?.arrayValue ?? []).compactMap(\.stringValue),
                  lastSeq: r.optionalInt64("last_seq") ?? 0, lastActivityAt: r.optionalInt64("last_activity_at") ?? 0,
                  memberCount: Int(r.optionalInt64("member_count") ?? 0), createdAt: r.optionalInt64("created_at") ?? 0)
    }

    package var json: JSONValue {
        .object(["id": .string(id), "kind": .string(kind.rawValue), "name": name.map(JSONValue.string) ?? .null,
                 "custom_data": customData ?? .null, "created_by": createdBy.map(JSONValue.string) ?? .null,
                 "direct_user_ids": .array(directUserIDs.map(JSONValue.string)), "last_seq": .number(String(lastSeq)),
                 "last_activity_at": .number(String(lastActivityAt)), "member_count": .int(memberCount),
                 "created_at": .number(String(createdAt)), "updated_at": .number(String(createdAt))])
    }
}
