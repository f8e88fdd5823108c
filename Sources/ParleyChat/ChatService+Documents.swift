import ParleyWire

/// `GET /v1/rooms/{room_id}/docs/{name}` and `…/update`: a room document read over REST,
/// by whoever may read the room's messages.
extension ChatService {
    func getRoomDocument(_ call: ChatCall) async throws -> ChatResponse {
        let (context, room, name) = try await roomDocumentCall(call)
        let found = try await storeCall(notFound: .documentNotFound) {
            try await configuration.roomDocuments?.content(app: context.appID, room: room, name: name)
        }
        guard let found else { throw Self.noDocument(room: room, name: name) }
        return .json(
            .object([
                "id": .string(found.id), "room_id": .string(room), "name": .string(name),
                "content": found.content
            ]))
    }

    func getRoomDocumentUpdate(_ call: ChatCall) async throws -> ChatResponse {
        let (context, room, name) = try await roomDocumentCall(call)
        let update = try await storeCall(notFound: .documentNotFound) {
            try await configuration.roomDocuments?.update(app: context.appID, room: room, name: name)
        }
        guard let update else { throw Self.noDocument(room: room, name: name) }
        return ChatResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: update)
    }

    /// The caller's context, the room and the document name, once the caller may read the room.
    private func roomDocumentCall(_ call: ChatCall) async throws(ChatError) -> (ChatContext, String, String) {
        let context = try call.requireContext()
        let room = call.parameter("room_id")
        try await requireMemberAccess(context, room: room)
        return (context, room, call.parameter("name"))
    }

    private static func noDocument(room: String, name: String) -> ChatError {
        ChatError(.documentNotFound, "room \(room) has no document called \(name)")
    }
}
