import ParleyStore
import ParleyWire

/// Messages: history, send (idempotent by client id), get, edit, delete; reactions.
extension ChatService {
    func history(_ call: ChatCall) async throws -> ChatResponse {
        // With `q` the room's messages are searched (ChatService+Search.swift), not paged by seq.
        if call.request.queryValue("q") != nil {
            if call.request.queryValue("before") != nil || call.request.queryValue("after") != nil {
                throw ChatError(.invalidParameter, "a search (q) is paged by offset, not before or after")
            }
            return try await searchRoom(call)
        }
        if call.request.queryValue("offset") != nil { throw ChatError(.invalidParameter, "offset pages a search: it needs q") }
        let context = try call.requireContext()
        let id = call.parameter("room_id")
        try await requireMemberAccess(context, room: id)
        let limit = try call.limit(fallback: configuration.limits.defaultHistoryPage, maximum: configuration.limits.maxPage)
        let before = try call.sequenceParameter("before"), after = try call.sequenceParameter("after")
        // One extra message tells whether the page has more beyond its far end.
        var messages = try await storeCall(notFound: .roomNotFound) {
            try await store.history(app: context.appID, room: id, HistoryQuery(before: before, after: after, limit: limit + 1))
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

    func sendMessage(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id")
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let sender: String
        switch context.caller {
        case .user(let user): sender = user
        case .app:
            // Required for app-level calls only: a rule the schema can't state, so 422.
            guard let given = try body.optionalString("sender_id") else {
                throw ChatError(.validationFailed, "app-level calls name the sending member in sender_id")
            }
            sender = given
        }
        try admit(.messages, context, user: sender)
        // Mutes and slow mode first: a send they refuse never reaches the app's hook. Each step
        // is awaited only when it has work (ChatService+SendFastPath.swift).
        // The store checks slow mode again in the send's transaction, which holds across nodes.
        let pace: SendPace?
        if admitsSendWithoutWaiting(context, room: room, sender: sender) {
            pace = nil
        } else {
            pace = try await admitModeratedSend(context, room: room, sender: sender)
        }
        var parts = try BlockedWords.apply(try body.parts(), rules: context.app.moderation)
        if hasBeforeSendHook(context) {
            parts = try await beforeSend(context, action: "message.send", room: room, sender: sender, messageID: nil, parts: parts)
        }
        // After the hook, so that file parts it writes in are resolved too.
        if Self.hasFileParts(parts) { parts = try await resolvingFiles(context, room: room, parts) }
        var message = try threadedMessage(body, sender: sender, clientID: try body.clientID(), parts: parts)
        message.pace = pace
        var hooksRecorded = false
        let result = try await storeCall(notFound: .roomNotFound) {
            if let hookEvents = sendHookEvents(context), let outbox = hooks.outbox {
                hooksRecorded = true
                return try await outbox.append(app: context.appID, room: room, message, hookEvents: hookEvents)
            }
            return try await store.appendMessage(app: context.appID, room: room, message)
        }
        if result.created {
            // One JSON form of the message serves all the events; the answer writes its bytes directly.
            let json = result.message.json
            var events = await messageCreatedEvents(context, result.message, json: json)
            events += threadEvents(result, json: json)
            await publish(context, events, hooksRecorded: hooksRecorded)
            notifyAwayMembers(context, result.message)
        }
        return .message(result.message, status: result.created ? .created : .ok)
    }

    /// `message.created` on the room channel, then `room.activity` on each member's channel
    /// (for room lists), unless the room is too big for per-member events. The members come
    /// from the member cache, so a send to an active room reads nothing back.
    private func messageCreatedEvents(_ context: ChatContext, _ message: Message, json: JSONValue) async -> [ChatEvent] {
        let data = messageEventData(message, json: json)
        var events = [ChatEvent(channel: ChatEvent.roomChannel(message.roomID), name: "message.created", data: data)]
        guard case .all(let members)? = await knownMembers(context, room: message.roomID) else { return events }
        events.reserveCapacity(1 + members.userChannels.count)
        for channel in members.userChannels { events.append(ChatEvent(channel: channel, name: "room.activity", data: data)) }
        return events
    }

    func getMessage(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id"), id = try call.idParameter("message_id")
        try await requireMember(context, room: room)
        let message = try await storeCall(notFound: .messageNotFound) { try await store.message(app: context.appID, room: room, id: id) }
        return .message(try await withoutBlockedReactions(context, [message])[0])
    }

    func editMessage(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.edits, context)
        let room = call.parameter("room_id"), id = try call.idParameter("message_id")
        try await requireMember(context, room: room)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        var parts = try BlockedWords.apply(try body.parts(), rules: context.app.moderation)
        let original = try await storeCall(notFound: .messageNotFound) { try await store.message(app: context.appID, room: room, id: id) }
        if let user = context.caller.userID, user != original.senderID {
            throw ChatError(.notAuthor, "only the author may edit a message")
        }
        if let user = context.caller.userID { try await refuseMuted(context, room: room, user: user) }
        parts = try await beforeSend(
            context, action: "message.edit", room: room, sender: original.senderID, messageID: id, parts: parts)
        parts = try await resolvingFiles(context, room: room, parts)
        let edited = try await storeCall(notFound: .messageNotFound) {
            try await store.editMessage(app: context.appID, room: room, id: id, parts: parts)
        }
        await publish(context, [ChatEvent(channel: ChatEvent.roomChannel(room), name: "message.updated", data: messageEventData(edited))])
        return .json(edited.json)
    }

    func deleteMessage(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        try admit(.deletes, context)
        let room = call.parameter("room_id"), id = try call.idParameter("message_id")
        let membership = try await requireMember(context, room: room)
        let original = try await storeCall(notFound: .messageNotFound) { try await store.message(app: context.appID, room: room, id: id) }
        let byOther = membership.map { $0.userID != original.senderID } ?? true
        if let membership, byOther, case .denied = RoomPermissions.decide(.deleteAnyMessage, actor: membership.role) {
            throw ChatError(.notAuthor, "only the author or a room moderator (or higher) may delete a message")
        }
        // Recorded by the delete's own transaction, and only if that transaction deleted it.
        let audit =
            byOther
            ? NewAuditEntry(action: "message_deleted", actorID: context.caller.userID, targetUserID: original.senderID, targetMessageID: id)
            : nil
        let deleted = try await storeCall(notFound: .messageNotFound) {
            try await store.deleteMessage(app: context.appID, room: room, id: id, audit: audit)
        }
        if !original.isDeleted {
            await publish(
                context, [ChatEvent(channel: ChatEvent.roomChannel(room), name: "message.deleted", data: messageEventData(deleted))])
        }
        return .json(deleted.json)
    }

    func addReaction(_ call: ChatCall) async throws -> ChatResponse {
        try await react(call, adding: true)
    }

    func removeReaction(_ call: ChatCall) async throws -> ChatResponse {
        try await react(call, adding: false)
    }

    private func react(_ call: ChatCall, adding: Bool) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        try admit(.reactions, context, user: user)
        let room = call.parameter("room_id"), id = try call.idParameter("message_id"), emoji = call.parameter("emoji")
        guard !emoji.isEmpty, emoji.count <= 64 else { throw ChatError(.validationFailed, "a reaction has 1-64 characters") }
        try await requireMember(context, room: room)
        let cap = context.app.limits.maxReactionsPerMessage
        let change: ReactionChange
        do {
            change =
                try await adding
                ? store.addReaction(app: context.appID, room: room, message: id, user: user, emoji: emoji, maxDistinct: cap)
                : store.removeReaction(app: context.appID, room: room, message: id, user: user, emoji: emoji)
        } catch let error as StoreError where error.code == .limitReached {
            throw ChatError(.tooManyReactions, error.message)
        } catch {
            throw ChatError.from(error, notFound: .messageNotFound)
        }
        let data = ChatJSON.reactionChange(change, room: room)
        if change.changed {
            var event = data.objectValue ?? JSONObject()
            event["user_id"] = .string(user)
            event["emoji"] = .string(emoji)
            event["action"] = .string(adding ? "added" : "removed")
            await publish(context, [ChatEvent(channel: ChatEvent.roomChannel(room), name: "reaction.changed", data: .object(event))])
        }
        return .json(ChatJSON.reactionChange(try await withoutBlockedReactions(context, change, room: room), room: room))
    }

    /// The data of message events: room, seq and the message itself.
    func messageEventData(_ message: Message, json: JSONValue? = nil) -> JSONValue {
        .object(["room_id": .string(message.roomID), "seq": .int64(message.seq), "message": json ?? message.json])
    }
}
