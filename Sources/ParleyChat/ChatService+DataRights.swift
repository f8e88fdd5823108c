import ParleyStore
import ParleyWire

/// Data rights: a user's export, their erasure, and the app-level audit log both write to.
///
/// Export: `GET /v1/users/{id}/export`, by the app or the user themself, in pages (the first
/// with the profile, memberships and read cursors, reactions and uploads; every page with up to
/// `limit` messages), so a prolific user never becomes one giant body. Erasure:
/// `POST /v1/users/{id}/erase`, by the app only, in one store transaction with its audit row.
extension ChatService {
    /// The largest export page, in messages.
    static let maxExportPage = 1_000

    func exportUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let id = call.parameter("user_id")
        try requireSelfOrApp(context, id)
        let store = try dataRightsStore()
        let limit = try call.limit(fallback: 500, maximum: Self.maxExportPage)
        let after = try call.sequenceParameter("after")
        let page = try await storeCall(notFound: .userNotFound) {
            try await store.exportPage(app: context.appID, user: id, after: after, limit: limit)
        }
        var body: JSONObject = [
            "user_id": .string(id), "messages": .array(page.messages.map(\.json)), "next_after": .optional(page.nextAfter)
        ]
        if after == nil {
            // The first page is the export's start: that is what the audit log records.
            let entry = AppAuditEntry(actor: Self.auditActor(context), action: "user.export", target: id)
            _ = try await storeCall(notFound: .userNotFound) { try await store.recordAudit(app: context.appID, entry) }
            body["profile"] = page.user.map(\.json) ?? .null
            body["memberships"] = .array(
                page.memberships.map {
                    .object(["room_id": .string($0.roomID), "role": .string($0.role.rawValue), "joined_at": .int64($0.joinedAt)])
                })
            body["read_cursors"] = .array(
                page.memberships.map {
                    .object(["room_id": .string($0.roomID), "seq": .int64($0.readSeq), "read_at": .optional($0.readAt)])
                })
            body["reactions"] = .array(
                page.reactions.map {
                    .object([
                        "room_id": .string($0.roomID), "seq": .int64($0.seq), "emoji": .string($0.emoji), "created_at": .int64($0.createdAt)
                    ])
                })
            body["attachments"] = .array(page.attachments.map { attachmentJSON($0, context: context) })
        }
        return .json(.object(body))
    }

    func eraseUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try requireApp(context)
        let id = call.parameter("user_id")
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes, emptyAllowed: true)
        let mode = try Self.erasureMode(body, fallback: context.app.limits.eraseMode)
        let store = try dataRightsStore()
        let entry = AppAuditEntry(actor: Self.auditActor(context), action: "user.erase", target: id)
        let erasure = try await membershipCall(notFound: .userNotFound) {
            try await store.eraseUser(app: context.appID, user: id, mode: mode, audit: entry)
        }
        for attachment in erasure.removedAttachments { files.remove(attachment.storagePath) }
        // Access ends as for a deleted user: cached tokens forgotten, sockets closed, grants revoked.
        await recordDeletedUser(app: context.appID, user: id)
        await publish(
            context,
            erasure.roomIDs.map { room in
                ChatEvent(
                    channel: ChatEvent.roomChannel(room), name: "member.left",
                    data: .object(["room_id": .string(room), "user_id": .string(id)]))
            })
        endAccess(AccessEnding(app: context.appID, room: nil, user: id, reason: .userDeleted))
        return .json(
            .object([
                "user_id": .string(id), "mode": .string(mode.rawValue), "user_removed": .bool(erasure.userRemoved),
                "messages": .int(erasure.messages), "reactions": .int(erasure.reactions),
                "attachments_removed": .int(erasure.removedAttachments.count),
                "attachments_anonymised": .int(erasure.anonymisedAttachments),
                "anonymous_author": .string(UserErasure.anonymousAuthor), "audit_id": .int64(erasure.audit.id)
            ]))
    }

    func listAudit(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try requireApp(context)
        let store = try dataRightsStore()
        let limit = try call.limit(fallback: 100, maximum: 1_000)
        let after = try call.sequenceParameter("after") ?? 0
        let entries = try await storeCall(notFound: .notFound) { try await store.auditLog(app: context.appID, after: after, limit: limit) }
        return .json(
            .object([
                "entries": .array(entries.map(\.json)),
                "next_after": entries.count == limit ? .optional(entries.last?.id) : .null
            ]))
    }

    /// `mode` of the body, else the app's default (`limits.erase_mode`).
    static func erasureMode(_ body: JSONBody, fallback: String) throws(ChatError) -> ErasureMode {
        if let unknown = body.object.keys.first(where: { $0 != "mode" }) {
            throw ChatError(.invalidRequest, "the body has no key \(unknown) (allowed: mode)")
        }
        // A present mode must be one of the two (null included: it is not "use the default").
        let text = body.object["mode"].map { $0.stringValue ?? "" } ?? fallback
        guard let mode = ErasureMode(rawValue: text) else { throw ChatError(.invalidRequest, "mode must be delete or anonymise") }
        return mode
    }

    static func auditActor(_ context: ChatContext) -> String {
        context.caller.userID.map { "user:\($0)" } ?? "app"
    }

    private func dataRightsStore() throws(ChatError) -> any DataRightsStore {
        guard let store = store as? any DataRightsStore else {
            throw ChatError(.unavailable, "this store keeps no user exports or audit log")
        }
        return store
    }
}
