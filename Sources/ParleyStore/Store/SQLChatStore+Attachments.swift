/// Attachment metadata (the files themselves are the chat service's business).
extension SQLChatStore {
    public func createAttachment(app: String, _ attachment: NewAttachment, quotaBytes: Int64?) async throws -> StoredAttachment {
        try validateIdentifier(attachment.id, "attachment id")
        try validateIdentifier(attachment.contentType, "content type")
        try validateIdentifier(attachment.storagePath, "storage path")
        guard attachment.size >= 0, attachment.thumbnailSize >= 0, (attachment.width ?? 0) >= 0, (attachment.height ?? 0) >= 0 else {
            throw StoreError(.invalidArgument, "attachment size, thumbnail size and dimensions must not be negative")
        }
        return try await write { context in
            _ = try Self.requireMember(context, app: app, room: attachment.roomID, user: attachment.uploaderID)
            if let quotaBytes {
                // Checked in the writing transaction, so concurrent uploads cannot both slip under it.
                let used = try Self.attachmentBytes(context, app: app)
                let adding = attachment.size + attachment.thumbnailSize
                guard used + adding <= quotaBytes else {
                    throw StoreError(
                        .limitReached,
                        "the app's attachments and thumbnails hold \(used) bytes; \(adding) more would pass its quota of \(quotaBytes)")
                }
            }
            try StoreError.remapping(.alreadyExists, to: StoreError(.alreadyExists, "attachment \(attachment.id) already exists")) {
                try context.execute(
                    """
                    INSERT INTO attachments
                        (app_id, id, room_id, uploader_id, content_type, size, width, height, storage_path, created_at, name, thumbnail_size)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                    """,
                    [
                        .text(app), .text(attachment.id), .text(attachment.roomID), .text(attachment.uploaderID),
                        .text(attachment.contentType), .integer(attachment.size), .integer(attachment.width.map(Int64.init)),
                        .integer(attachment.height.map(Int64.init)), .text(attachment.storagePath), .integer(context.now),
                        .text(attachment.name), .integer(attachment.thumbnailSize)
                    ])
            }
            return StoredAttachment(
                id: attachment.id, roomID: attachment.roomID, uploaderID: attachment.uploaderID,
                contentType: attachment.contentType, size: attachment.size, width: attachment.width,
                height: attachment.height, storagePath: attachment.storagePath, createdAt: context.now, name: attachment.name,
                thumbnailSize: attachment.thumbnailSize)
        }
    }

    public func attachmentBytes(app: String) async throws -> Int64 {
        try await read { context in try Self.attachmentBytes(context, app: app) }
    }

    private static func attachmentBytes(_ context: SQLContext, app: String) throws -> Int64 {
        try context.queryFirst(
            "SELECT CAST(COALESCE(SUM(size + thumbnail_size), 0) AS BIGINT) FROM attachments WHERE app_id = $1",
            [.text(app)]
        ) { $0.int64(0) } ?? 0
    }

    public func attachment(app: String, id: String) async throws -> StoredAttachment {
        try await read { context in try Self.fetchAttachment(context, app: app, id: id) }
    }

    public func deleteAttachment(app: String, id: String) async throws -> StoredAttachment {
        try await write { context in
            let attachment = try Self.fetchAttachment(context, app: app, id: id)
            try context.execute("DELETE FROM attachments WHERE app_id = $1 AND id = $2", [.text(app), .text(id)])
            return attachment
        }
    }

    private static func fetchAttachment(_ context: SQLContext, app: String, id: String) throws -> StoredAttachment {
        let attachment = try context.queryFirst(
            "SELECT \(attachmentColumns) FROM attachments WHERE app_id = $1 AND id = $2",
            [.text(app), .text(id)], decodeAttachment)
        guard let attachment else { throw StoreError(.notFound, "attachment \(id) not found") }
        return attachment
    }
}
