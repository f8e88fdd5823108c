import ParleyStore
import ParleyWire

/// Attachments: upload into a room, metadata with a signed URL, download.
extension ChatService {
    func uploadAttachment(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.uploads, context)
        let user = try context.requireUser()
        let room = call.parameter("room_id")
        guard let contentType = call.request.headers.first("Content-Type").map({ Substring($0).trimmingSpaces() }),
            Self.isMediaType(contentType)
        else {
            throw ChatError(.unsupportedMediaType, "send the file's media type in Content-Type")
        }
        let maxBytes = attachmentLimit(context.app.limits)
        guard call.request.body.count <= maxBytes else {
            throw ChatError(.payloadTooLarge, "attachments may have at most \(maxBytes) bytes")
        }
        guard !call.request.body.isEmpty else { throw ChatError(.invalidRequest, "the attachment is empty") }
        let name = call.request.queryValue("name").flatMap { FileName($0)?.value }
        // Membership is checked before any byte reaches the disk.
        try await requireMember(context, room: room)
        // What the bytes are is settled before the store is asked about room for them.
        let (type, dimensions) = try sniffUpload(call.request.body, declared: contentType)
        let storedType = type.storedType(declared: Self.essence(contentType))
        guard context.app.limits.allowsAttachment(storedType) else {
            throw ChatError(.attachmentTypeNotAllowed, "this app does not accept \(Self.essence(storedType)) attachments")
        }
        let quota = context.app.limits.attachmentQuotaBytes.map(Int64.init)
        if let quota {
            // A cheap look first, so a full app does not write and remove every refused file.
            let used = try await storeCall(notFound: .roomNotFound) { try await store.attachmentBytes(app: context.appID) }
            guard used + Int64(call.request.body.count) <= quota else { throw Self.quotaError(used: used, quota: quota) }
        }
        let id = Self.makeIdentifier()
        let path = AttachmentFiles.relativePath(app: context.appID, id: id)
        try files.write(call.request.body, to: path)
        let attachment: StoredAttachment
        do {
            let thumbnailSize = try await storeThumbnail(of: call.request.body, type: type, dimensions: dimensions, path: path)
            attachment = try await store.createAttachment(
                app: context.appID,
                NewAttachment(
                    id: id, roomID: room, uploaderID: user, contentType: storedType, size: Int64(call.request.body.count),
                    width: dimensions?.width, height: dimensions?.height, storagePath: path, name: name, thumbnailSize: thumbnailSize),
                quotaBytes: quota)
        } catch let error as StoreError where error.code == .limitReached {
            // The quota again, inside the writing transaction: a concurrent upload got there first.
            files.remove(path)
            throw ChatError(.storageQuotaExceeded, error.message)
        } catch {
            files.remove(path)
            throw ChatError.from(error, notFound: .roomNotFound)
        }
        return .json(attachmentJSON(attachment, context: context), status: .created)
    }

    static func quotaError(used: Int64, quota: Int64) -> ChatError {
        ChatError(
            .storageQuotaExceeded,
            "this app's attachments and their thumbnails already hold \(used) of its \(quota) bytes; "
                + "delete some or raise limits.attachment_quota_bytes")
    }

    func getAttachment(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = call.parameter("attachment_id")
        let attachment = try await storeCall(notFound: .attachmentNotFound) { try await store.attachment(app: context.appID, id: id) }
        try await requireMember(context, room: attachment.roomID)
        return .json(attachmentJSON(attachment, context: context))
    }

    /// Deletes one attachment: by its uploader, a room moderator or higher (recorded in the room's
    /// audit log as `attachment_deleted`), or the app. Its file and thumbnail are removed, so their
    /// bytes leave the app's quota; messages naming it keep their file part as sent, and its
    /// downloads answer `attachment_not_found` from then on. The room's channel gets
    /// `attachment.deleted`.
    func deleteAttachment(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.deletes, context)
        let id = call.parameter("attachment_id")
        let attachment = try await storeCall(notFound: .attachmentNotFound) { try await store.attachment(app: context.appID, id: id) }
        let membership = try await requireMember(context, room: attachment.roomID)
        let byOther = membership.map { $0.userID != attachment.uploaderID } ?? true
        if let membership, byOther, case .denied = RoomPermissions.decide(.deleteAnyMessage, actor: membership.role) {
            throw ChatError(.notAuthor, "only the uploader or a room moderator (or higher) may delete an attachment")
        }
        let deleted = try await storeCall(notFound: .attachmentNotFound) { try await store.deleteAttachment(app: context.appID, id: id) }
        files.remove(deleted.storagePath)
        files.remove(AttachmentFiles.thumbnailPath(of: deleted.storagePath))
        if byOther {
            // Written after the delete (as for messages): a crash between loses the entry, never invents one.
            let entry = NewAuditEntry(
                action: "attachment_deleted", actorID: context.caller.userID, targetUserID: attachment.uploaderID,
                detail: ModerationJSON.detail(["attachment_id": .string(id)]))
            try await storeCall(notFound: .roomNotFound) { try await store.recordAudit(app: context.appID, room: attachment.roomID, entry) }
        }
        // Members with a message naming it on screen stop offering the file.
        let event: JSONObject = ["room_id": .string(attachment.roomID), "attachment_id": .string(id)]
        await publish(
            context, [ChatEvent(channel: ChatEvent.roomChannel(attachment.roomID), name: "attachment.deleted", data: .object(event))])
        return .noContent
    }

    func downloadAttachment(_ call: ChatCall) async throws -> ChatResponse {
        let id = call.parameter("attachment_id")
        let thumbnail = try Self.wantsThumbnail(call.request)
        let attachment: StoredAttachment
        if let context = call.context {
            attachment = try await storeCall(notFound: .attachmentNotFound) { try await store.attachment(app: context.appID, id: id) }
            try await requireMember(context, room: attachment.roomID)
        } else {
            attachment = try await signedAttachment(call, id: id)
        }
        if thumbnail { return try thumbnailResponse(attachment) }
        guard let bytes = try files.read(attachment.storagePath) else {
            throw ChatError(.attachmentNotFound, "the attachment's file is missing")
        }
        var headers: HTTPHeaders = ["Content-Type": attachment.contentType]
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Content-Disposition", Self.contentDisposition(attachment.attachment))
        // Uploaded files are served as inert documents, never as pages of this origin.
        headers.add("Content-Security-Policy", "sandbox")
        headers.add("Cache-Control", "private, max-age=\(configuration.limits.downloadURLSeconds)")
        return ChatResponse(status: .ok, headers: headers, body: bytes)
    }

    /// What an upload is, by its bytes: the declared type must agree (`SniffedMediaType.accepts`),
    /// an image's header must decode, and its size stay within the limits.
    func sniffUpload(_ bytes: [UInt8], declared: String) throws(ChatError) -> (SniffedMediaType, ImageDimensions?) {
        let type = SniffedMediaType.sniff(bytes)
        let essence = declared.split(separator: ";", maxSplits: 1).first.map { String(Substring($0).trimmingSpaces()) } ?? declared
        guard type.accepts(declared: essence) else {
            throw ChatError(.contentTypeMismatch, "the body is \(type.rawValue), not \(essence): declare what the file is")
        }
        guard type.isImage else { return (type, nil) }
        guard let dimensions = ImageDimensions.read(bytes, as: type), dimensions.width > 0, dimensions.height > 0 else {
            throw ChatError(.invalidImage, "the \(type.rawValue) header does not decode")
        }
        let limits = configuration.limits
        guard dimensions.width <= limits.maxImageSide, dimensions.height <= limits.maxImageSide,
            dimensions.width * dimensions.height <= limits.maxImagePixels
        else {
            throw ChatError(
                .imageTooLarge,
                "images may have at most \(limits.maxImageSide) pixels a side and \(limits.maxImagePixels) in all, "
                    + "not \(dimensions.width)×\(dimensions.height)")
        }
        return (type, dimensions)
    }

    /// Images are shown inline; everything else (and any type stored before uploads were
    /// sniffed) is offered as a download named after the attachment, never rendered in place.
    static func contentDisposition(_ attachment: Attachment) -> String {
        let image = SniffedMediaType(rawValue: essence(attachment.contentType).lowercased())?.isImage ?? false
        return FileName.contentDisposition(inline: image, name: attachment.name, fallback: attachment.id)
    }

    /// A media type without its parameters.
    static func essence(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map { Substring($0).trimmingSpaces() } ?? contentType
    }

    /// The attachment a signed URL names, after checking its signature and expiry.
    private func signedAttachment(_ call: ChatCall, id: String) async throws(ChatError) -> StoredAttachment {
        let query = call.request
        guard let appID = query.queryValue("app"), let expires = query.queryValue("expires"),
            let signature = query.queryValue("signature")
        else {
            throw ChatError(
                .authenticationRequired, "send credentials or use a signed download URL",
                headers: ["WWW-Authenticate": "Bearer"])
        }
        guard let app = apps.app(id: appID) else { throw ChatError(.urlSignatureInvalid, "the download URL's signature does not match") }
        try DownloadSigner.verify(
            app: app.id, secrets: app.secrets, attachment: id, expires: expires, signature: signature, now: nowSeconds)
        return try await storeCall(notFound: .attachmentNotFound) { try await store.attachment(app: app.id, id: id) }
    }

    /// Metadata plus a fresh signed download URL.
    func attachmentJSON(_ stored: StoredAttachment, context: ChatContext) -> JSONValue {
        var attachment = stored.attachment
        let expires = nowSeconds + configuration.limits.downloadURLSeconds
        attachment.downloadURL = DownloadSigner.url(
            app: context.appID, secret: context.app.secret, attachment: attachment.id, expires: expires)
        attachment.downloadURLExpiresAt = expires
        guard let thumbnail = thumbnailURL(stored, downloadURL: attachment.downloadURL), case .object(var object) = attachment.json else {
            return attachment.json
        }
        object["thumbnail_url"] = .string(thumbnail)
        return .object(object)
    }

    /// `type/subtype` with token characters, parameters allowed.
    static func isMediaType(_ value: String) -> Bool {
        let essence = value.split(separator: ";", maxSplits: 1).first.map { Substring($0).trimmingSpaces() } ?? ""
        let halves = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, value.utf8.count <= 200 else { return false }
        return halves.allSatisfy { half in
            !half.isEmpty
                && half.utf8.allSatisfy { byte in
                    (0x21...0x7E).contains(byte) && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
                }
        }
    }

    /// A random id: 20 characters of base32 (100 bits).
    static func makeIdentifier() -> String {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
        return String(decoding: Digest.randomBytes(20).map { alphabet[Int($0 & 31)] }, as: UTF8.self)
    }
}
