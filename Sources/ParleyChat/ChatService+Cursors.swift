import ParleyStore
import ParleyWire

/// Read cursors and typing.
extension ChatService {
    func setCursor(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.cursors, context)
        let user = try context.requireUser()
        let room = call.parameter("room_id")
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let seq = try body.int64("seq")
        guard seq >= 0 else { throw ChatError(.validationFailed, "seq must not be negative") }
        let change = try await storeCall(notFound: .roomNotFound) {
            try await store.setReadCursor(app: context.appID, room: room, user: user, seq: seq)
        }
        if change.moved {
            var events = [ChatEvent(channel: ChatEvent.roomChannel(room), name: "cursor.updated", data: change.cursor.json)]
            if let summary = try? await store.roomSummary(app: context.appID, room: room, user: user) {
                events.append(
                    ChatEvent(
                        channel: ChatEvent.userChannel(user), name: "room.read",
                        data: .object([
                            "room_id": .string(room), "read_seq": .int64(summary.readSeq),
                            "unread_count": .int(summary.unreadCount), "unread_mentions": .int(summary.unreadMentions)
                        ])))
            }
            await publish(context, events)
        }
        return .json(change.cursor.json)
    }

    func listCursors(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id")
        try await requireMember(context, room: room)
        let cursors = try await storeCall(notFound: .roomNotFound) { try await store.readCursors(app: context.appID, room: room) }
        return .json(["cursors": .array(cursors.map(\.json))])
    }

    func typing(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.typing, context)
        let user = try context.requireUser()
        let room = call.parameter("room_id")
        _ = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes, emptyAllowed: true)
        try await requireMember(context, room: room)
        // The event names the token's user, never a user the body names: receivers may believe it.
        await publish(
            context,
            [
                ChatEvent(
                    channel: ChatEvent.roomChannel(room), name: "typing",
                    data: .object(["room_id": .string(room), "user_id": .string(user)]))
            ])
        return .noContent
    }

    /// The user stopped typing before the notice expired (sent a message elsewhere, cleared the
    /// composer): others hide the indicator at once.
    func stopTyping(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.typing, context)
        let user = try context.requireUser()
        let room = call.parameter("room_id")
        try await requireMember(context, room: room)
        await publish(
            context,
            [
                ChatEvent(
                    channel: ChatEvent.roomChannel(room), name: "typing.stopped",
                    data: .object(["room_id": .string(room), "user_id": .string(user)]))
            ])
        return .noContent
    }
}
