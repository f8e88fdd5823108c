import ParleyStore
import ParleyWire

/// The API's JSON forms of moderation values (docs/openapi.json: Restriction, AuditEntry, Flag).
enum ModerationJSON {
    static func restriction(_ restriction: RoomRestriction) -> JSONValue {
        .object([
            "room_id": .string(restriction.roomID), "user_id": .string(restriction.userID),
            "kind": .string(restriction.kind.rawValue), "until": .optional(restriction.until),
            "reason": .optional(restriction.reason), "actor_id": .optional(restriction.actorID),
            "created_at": .int64(restriction.createdAt)
        ])
    }

    static func audit(_ entry: AuditEntry) -> JSONValue {
        let detail = entry.record.detail.flatMap { try? JSONParser.parse(Array($0.utf8)) } ?? .null
        return .object([
            "id": .int64(entry.id), "room_id": .string(entry.roomID), "action": .string(entry.record.action),
            "actor_id": .optional(entry.record.actorID), "target_user_id": .optional(entry.record.targetUserID),
            "target_message_id": .optional(entry.record.targetMessageID), "reason": .optional(entry.record.reason),
            "detail": detail, "created_at": .int64(entry.createdAt)
        ])
    }

    static func flag(_ flag: MessageFlag) -> JSONValue {
        .object([
            "id": .int64(flag.id), "room_id": .string(flag.roomID), "message_id": .int64(flag.messageID),
            "flagger_id": .string(flag.flaggerID), "reason": .optional(flag.reason), "created_at": .int64(flag.createdAt),
            "resolved_at": .optional(flag.resolvedAt), "resolved_by": .optional(flag.resolvedBy),
            "resolution": .optional(flag.resolution)
        ])
    }

    /// `value` as the JSON text an audit entry's detail keeps.
    static func detail(_ value: JSONObject) -> String {
        String(decoding: JSONWriter.serialize(.object(value)), as: UTF8.self)
    }
}
