import ParleyStore
import ParleyWire

/// Threads, quotes and mentions: the send fields, the thread page and their events.
extension ChatService {
    /// A send's message with its optional `parent_id`, `show_in_room` and `quoted_message_id`.
    func threadedMessage(_ body: JSONBody, sender: String, clientID: String?, parts: [MessagePart]) throws(ChatError) -> NewMessage {
        let parent = try body.optionalInt64("parent_id")
        let quoted = try body.optionalInt64("quoted_message_id")
        let showInRoom = try body.optionalBool("show_in_room")
        for (key, id) in [("parent_id", parent), ("quoted_message_id", quoted)] {
            if let id, id <= 0 { throw ChatError(.validationFailed, "\(key) must be a positive message id") }
        }
        if showInRoom != nil, parent == nil {
            throw ChatError(.validationFailed, "show_in_room applies to replies only (give parent_id)")
        }
        return NewMessage(
            senderID: sender, clientID: clientID, parts: parts, parentID: parent, showInRoom: showInRoom ?? false, quotedID: quoted)
    }

    /// `thread.updated` on the room channel for a new reply (the root's new reply count and
    /// last repliers), and `message.mentioned` on each mentioned member's user channel.
    func threadEvents(_ result: AppendResult, json: JSONValue) -> [ChatEvent] {
        let message = result.message
        var events: [ChatEvent] = []
        if let thread = result.thread {
            events.append(
                ChatEvent(
                    channel: ChatEvent.roomChannel(message.roomID), name: "thread.updated",
                    data: .object([
                        "room_id": .string(message.roomID), "message_id": .int64(thread.rootID),
                        "reply_count": .int(thread.replyCount),
                        "last_replier_ids": .array(thread.lastReplierIDs.map { .string($0) }),
                        "reply_id": .int64(message.id), "reply_seq": .int64(message.seq)
                    ])))
        }
        for user in message.mentions {
            events.append(
                ChatEvent(
                    channel: ChatEvent.userChannel(user), name: "message.mentioned",
                    data: .object(["room_id": .string(message.roomID), "seq": .int64(message.seq), "message": json])))
        }
        return events
    }

    /// `GET /v1/rooms/{room_id}/messages/{message_id}/replies`: a page of a thread, shaped and
    /// paged like history (`before`, `after`, `limit`), without the replies of users the caller blocks.
    func replies(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id"), parent = try call.idParameter("message_id")
        try await requireMemberAccess(context, room: room)
        let limit = try call.limit(fallback: configuration.limits.defaultHistoryPage, maximum: configuration.limits.maxPage)
        let before = try call.sequenceParameter("before"), after = try call.sequenceParameter("after")
        var messages = try await storeCall(notFound: .messageNotFound) {
            try await store.replies(
                app: context.appID, room: room, parent: parent, HistoryQuery(before: before, after: after, limit: limit + 1))
        }
        let hasMore = messages.count > limit
        if hasMore {
            if after != nil { messages.removeLast() } else { messages.removeFirst() }
        }
        messages = try await withoutBlocked(context, messages)
        return ChatResponse(
            status: .ok, headers: ["Content-Type": "application/json"],
            body: MessagePage(messages: messages, hasMore: hasMore).jsonBytes)
    }
}
