import ParleyChannels
import ParleyStore

/// Files of any type: per-app upload limits, and message file parts filled in from their attachments.
extension ChatService {
    /// The largest upload `limits` allow: the app's own `max_attachment_bytes`, else the service default.
    func attachmentLimit(_ limits: AppLimits) -> Int {
        limits.maxAttachmentBytes ?? configuration.limits.attachmentBytes
    }

    /// The body limit of the upload route: the largest any configured app allows. An app added
    /// or raised by a reload gets at most this until a restart.
    public var uploadBodyLimit: Int {
        configuration.apps.map { attachmentLimit($0.limits) }.max() ?? configuration.limits.attachmentBytes
    }

    /// `parts` with each file part's metadata taken from its attachment, which must be an
    /// upload of `room` (422 `validation_failed` otherwise, as for attachment parts).
    func resolvingFiles(_ context: ChatContext, room: String, _ parts: [MessagePart]) async throws(ChatError) -> [MessagePart] {
        guard parts.contains(where: { $0.file != nil }) else { return parts }
        var resolved = parts
        for (index, part) in parts.enumerated() {
            guard let file = part.file else { continue }
            let attachment: StoredAttachment
            do {
                attachment = try await store.attachment(app: context.appID, id: file.attachmentID)
            } catch let error as StoreError where error.code == .notFound {
                throw Self.notInRoom(file.attachmentID, room)
            } catch {
                throw ChatError.from(error, notFound: .attachmentNotFound)
            }
            guard attachment.roomID == room else { throw Self.notInRoom(file.attachmentID, room) }
            resolved[index] = .file(FilePart(attachment.attachment))
        }
        return resolved
    }

    private static func notInRoom(_ id: String, _ room: String) -> ChatError {
        ChatError(.validationFailed, "attachment \(id) does not exist in room \(room)")
    }
}
