/// Column lists and row decoders shared by every query of the chat store.
extension SQLChatStore {
    static let userColumns = "id, name, avatar_url, custom_data, created_at, updated_at"
    static let roomColumns = """
        id, kind, name, custom_data, created_by, direct_user_low, direct_user_high, \
        last_seq, last_activity_at, member_count, created_at, updated_at
        """
    static let membershipColumns = "room_id, user_id, role, joined_at, read_seq, read_at"
    static let messageColumns = """
        id, room_id, seq, sender_id, client_id, parts, created_at, edited_at, deleted_at, \
        parent_id, thread_only, reply_count, last_repliers, quoted_id, quoted_sender, quoted_parts, mentions
        """
    /// How many columns `messageColumns` names.
    static let messageColumnCount = 17
    static let attachmentColumns =
        "id, room_id, uploader_id, content_type, size, width, height, storage_path, created_at, name, thumbnail_size"

    /// `columns` with every name prefixed by a table alias (`r.id, r.kind…`).
    static func qualified(_ columns: String, _ alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.trimmingSpaces())" }.joined(separator: ", ")
    }

    static func decodeUser(_ row: any SQLRow) -> ChatUser {
        ChatUser(
            id: row.text(0), name: row.text(1), avatarURL: row.optionalText(2), customData: customData(row.optionalText(3)),
            createdAt: row.int64(4), updatedAt: row.int64(5))
    }

    static func decodeRoom(_ row: any SQLRow, at offset: Int = 0) throws(StoreError) -> Room {
        guard let kind = RoomKind(rawValue: row.text(offset + 1)) else {
            throw StoreError(.internal, "unknown room kind \(row.text(offset + 1)) in the database")
        }
        let directUsers = row.isNull(offset + 5) ? [] : [row.text(offset + 5), row.text(offset + 6)]
        return Room(
            id: row.text(offset), kind: kind, name: row.optionalText(offset + 2),
            customData: customData(row.optionalText(offset + 3)), createdBy: row.optionalText(offset + 4),
            directUserIDs: directUsers, lastSeq: row.int64(offset + 7), lastActivityAt: row.int64(offset + 8),
            memberCount: row.int(offset + 9), createdAt: row.int64(offset + 10), updatedAt: row.int64(offset + 11))
    }

    static func decodeRole(_ text: String) throws(StoreError) -> MemberRole {
        guard let role = MemberRole(rawValue: text) else {
            throw StoreError(.internal, "unknown member role \(text) in the database")
        }
        return role
    }

    static func decodeMembership(_ row: any SQLRow) throws(StoreError) -> Membership {
        Membership(
            roomID: row.text(0), userID: row.text(1), role: try decodeRole(row.text(2)),
            joinedAt: row.int64(3), readSeq: row.int64(4), readAt: row.optionalInt64(5))
    }

    static func decodeMessage(_ row: any SQLRow, at offset: Int = 0) throws(StoreError) -> Message {
        Message(
            id: row.int64(offset), roomID: row.text(offset + 1), seq: row.int64(offset + 2),
            senderID: row.text(offset + 3), clientID: row.optionalText(offset + 4),
            parts: try MessagePartsJSON.decode(row.text(offset + 5)), createdAt: row.int64(offset + 6),
            editedAt: row.optionalInt64(offset + 7), deletedAt: row.optionalInt64(offset + 8),
            parentID: row.optionalInt64(offset + 9), showInRoom: row.int(offset + 10) == 0, replyCount: row.int(offset + 11),
            lastReplierIDs: userIDList(row.optionalText(offset + 12)), quoted: try decodeQuote(row, at: offset + 13),
            mentions: userIDList(row.optionalText(offset + 16)))
    }

    /// A quote from (quoted_id, quoted_sender, quoted_parts); parts cleared means the original was deleted.
    static func decodeQuote(_ row: any SQLRow, at offset: Int) throws(StoreError) -> QuotedMessage? {
        guard let id = row.optionalInt64(offset) else { return nil }
        guard let parts = row.optionalText(offset + 2) else {
            return QuotedMessage(id: id, senderID: row.optionalText(offset + 1) ?? "", parts: [], isDeleted: true)
        }
        return QuotedMessage(id: id, senderID: row.optionalText(offset + 1) ?? "", parts: try MessagePartsJSON.decode(parts))
    }

    /// User ids stored separated by spaces (ids have none), in their stored order.
    static func userIDList(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: " ").map(String.init)
    }

    static func decodeAttachment(_ row: any SQLRow) -> StoredAttachment {
        StoredAttachment(
            id: row.text(0), roomID: row.text(1), uploaderID: row.text(2), contentType: row.text(3),
            size: row.int64(4), width: row.optionalInt(5), height: row.optionalInt(6),
            storagePath: row.text(7), createdAt: row.int64(8), name: row.optionalText(9), thumbnailSize: row.int64(10))
    }
}

extension Substring {
    /// The text without leading and trailing spaces and newlines.
    func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\n" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\n" { text.removeLast() }
        return text
    }
}
