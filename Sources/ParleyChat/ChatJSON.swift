import ParleyStore
import ParleyWire

/// The JSON shapes of the REST API and of realtime event data (see docs/openapi.json).
enum ChatJSON {
    static func user(_ user: ChatUser) -> JSONValue {
        .object([
            "id": .string(user.id), "name": .string(user.name), "avatar_url": optional(user.avatarURL),
            "custom_data": customData(user.customData), "created_at": number(user.createdAt), "updated_at": number(user.updatedAt),
        ])
    }

    static func room(_ room: Room) -> JSONValue {
        .object([
            "id": .string(room.id), "kind": .string(room.kind.rawValue), "name": optional(room.name),
            "custom_data": customData(room.customData), "created_by": optional(room.createdBy),
            "direct_user_ids": .array(room.directUserIDs.map(JSONValue.string)), "last_seq": number(room.lastSeq),
            "last_activity_at": number(room.lastActivityAt), "member_count": .int(room.memberCount),
            "created_at": number(room.createdAt), "updated_at": number(room.updatedAt),
        ])
    }

    static func membership(_ membership: Membership) -> JSONValue {
        .object([
            "room_id": .string(membership.roomID), "user_id": .string(membership.userID), "role": .string(membership.role.rawValue),
            "joined_at": number(membership.joinedAt), "read_seq": number(membership.readSeq), "read_at": optional(membership.readAt),
        ])
    }

    static func message(_ message: Message) -> JSONValue {
        .object([
            "id": number(message.id), "room_id": .string(message.roomID), "seq": number(message.seq),
            "sender_id": .string(message.senderID), "client_id": optional(message.clientID),
            "parts": .array(message.parts.map(part)), "created_at": number(message.createdAt),
            "edited_at": optional(message.editedAt), "deleted_at": optional(message.deletedAt),
            "deleted": .bool(message.isDeleted), "reactions": reactions(message.reactions),
        ])
    }

    static func part(_ part: MessagePart) -> JSONValue {
        switch part {
        case .text(let text): return .object(["type": .string("text"), "text": .string(text)])
        case .attachment(let id): return .object(["type": .string("attachment"), "attachment_id": .string(id)])
        case .url(let url): return .object(["type": .string("url"), "url": .string(url)])
        }
    }

    static func reactions(_ counts: [ReactionCount]) -> JSONValue {
        .array(counts.map { .object(["emoji": .string($0.emoji), "count": .int($0.count)]) })
    }

    static func summary(_ summary: RoomSummary) -> JSONValue {
        .object([
            "room": room(summary.room), "role": .string(summary.role.rawValue), "read_seq": number(summary.readSeq),
            "unread_count": .int(summary.unreadCount), "last_message": summary.lastMessage.map(message) ?? .null,
        ])
    }

    static func cursor(_ cursor: ReadCursor) -> JSONValue {
        .object([
            "room_id": .string(cursor.roomID), "user_id": .string(cursor.userID), "seq": number(cursor.seq),
            "read_at": optional(cursor.readAt),
        ])
    }

    static func attachment(_ attachment: Attachment) -> JSONValue {
        .object([
            "id": .string(attachment.id), "room_id": .string(attachment.roomID), "uploader_id": .string(attachment.uploaderID),
            "content_type": .string(attachment.contentType), "size": number(attachment.size),
            "width": attachment.width.map(JSONValue.int) ?? .null, "height": attachment.height.map(JSONValue.int) ?? .null,
            "created_at": number(attachment.createdAt),
        ])
    }

    static func reactionChange(_ change: ReactionChange, room: String) -> JSONValue {
        .object([
            "room_id": .string(room), "message_id": number(change.messageID), "seq": number(change.seq),
            "reactions": reactions(change.reactions),
        ])
    }

    static func number(_ value: Int64) -> JSONValue { .number(String(value)) }

    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    static func optional(_ value: Int64?) -> JSONValue { value.map(number) ?? .null }

    /// Stored custom data is JSON text the service wrote; anything unparsable shows as null.
    static func customData(_ text: String?) -> JSONValue {
        guard let text, let value = try? JSONParser.parse(text) else { return .null }
        return value
    }
}
