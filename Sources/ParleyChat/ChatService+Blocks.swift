import ParleyStore
import ParleyWire

/// User blocks: a user blocks another app-wide. No direct room opens or takes messages between
/// the two (either way), and the blocker's history pages leave out the blocked user's messages
/// and take their reactions off the counts (so does the answer to the blocker's own reaction).
/// Realtime events are not filtered (a room channel is one broadcast): clients hide them using
/// `GET /v1/me/blocks`.
extension ChatService {
    func listBlocks(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        let blocked = try await storeCall(notFound: .userNotFound) { try await store.blockedUsers(app: context.appID, blocker: user) }
        return .json(["user_ids": .array(blocked.map(JSONValue.string))])
    }

    func blockUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        try admit(.memberships, context)
        let other = call.parameter("user_id")
        guard other != user else { throw ChatError(.validationFailed, "a user cannot block themself") }
        _ = try await storeCall(notFound: .userNotFound) { try await store.user(app: context.appID, id: other) }
        let added = try await storeCall(notFound: .userNotFound) {
            try await store.block(app: context.appID, blocker: user, blocked: other)
        }
        return .json(["user_id": .string(other), "blocked": .bool(true)], status: added ? .created : .ok)
    }

    func unblockUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        try admit(.memberships, context)
        _ = try await storeCall(notFound: .userNotFound) {
            try await store.unblock(app: context.appID, blocker: user, blocked: call.parameter("user_id"))
        }
        return .noContent
    }

    /// `user_blocked` when either of the two users blocks the other.
    func refuseBlocked(_ context: ChatContext, _ first: String, _ second: String) async throws(ChatError) {
        let blocked = try await storeCall(notFound: .userNotFound) {
            try await store.blocks(app: context.appID, between: first, and: second)
        }
        guard blocked else { return }
        throw ChatError(.userBlocked, "one of \(first) and \(second) blocks the other: no direct messages between them")
    }

    /// The page without the messages of users the calling user blocks, and without their
    /// reactions in the counts of the rest (app calls see everything).
    func withoutBlocked(_ context: ChatContext, _ messages: [Message]) async throws(ChatError) -> [Message] {
        guard let user = context.caller.userID, !messages.isEmpty else { return messages }
        let blocked = try await storeCall(notFound: .userNotFound) { try await store.blockedUsers(app: context.appID, blocker: user) }
        guard !blocked.isEmpty else { return messages }
        let hidden = Set(blocked)
        return try await withoutReactions(ofBlockedBy: user, context, messages.filter { !hidden.contains($0.senderID) })
    }

    /// `messages` with the reactions of users the calling user blocks taken off their counts
    /// (app calls see everything): for views that show a blocked user's message, such as one
    /// message read by id or a search hit in a room of theirs.
    func withoutBlockedReactions(_ context: ChatContext, _ messages: [Message]) async throws(ChatError) -> [Message] {
        guard let user = context.caller.userID, messages.contains(where: { !$0.reactions.isEmpty }) else { return messages }
        let blocked = try await storeCall(notFound: .userNotFound) { try await store.blockedUsers(app: context.appID, blocker: user) }
        guard !blocked.isEmpty else { return messages }
        return try await withoutReactions(ofBlockedBy: user, context, messages)
    }

    /// `change` with the reactions of users the calling user blocks taken off its counts, as
    /// history shows the message to them: the answer to their own reaction. The room's
    /// `reaction.changed` event keeps the full counts (one broadcast for every member).
    func withoutBlockedReactions(
        _ context: ChatContext, _ change: ReactionChange, room: String
    ) async throws(ChatError) -> ReactionChange {
        guard let user = context.caller.userID, !change.reactions.isEmpty else { return change }
        let blocked = try await storeCall(notFound: .roomNotFound) {
            try await store.blockedReactionCounts(app: context.appID, blocker: user, room: room, seqs: [change.seq])
        }
        guard let removed = blocked[change.seq] else { return change }
        var shown = change
        shown.reactions = Self.reactionCounts(change.reactions, without: removed)
        return shown
    }

    /// Takes the reactions of users `blocker` blocks off the counts, with one store read per
    /// room among the messages that have reactions at all.
    private func withoutReactions(
        ofBlockedBy blocker: String, _ context: ChatContext, _ messages: [Message]
    ) async throws(ChatError) -> [Message] {
        let reacted = messages.indices.filter { !messages[$0].reactions.isEmpty }
        guard !reacted.isEmpty else { return messages }
        var shown = messages
        for (room, indices) in Dictionary(grouping: reacted, by: { messages[$0].roomID }) {
            let seqs = indices.map { messages[$0].seq }
            let blocked = try await storeCall(notFound: .roomNotFound) {
                try await store.blockedReactionCounts(app: context.appID, blocker: blocker, room: room, seqs: seqs)
            }
            guard !blocked.isEmpty else { continue }
            for index in indices {
                guard let removed = blocked[shown[index].seq] else { continue }
                shown[index].reactions = Self.reactionCounts(shown[index].reactions, without: removed)
            }
        }
        return shown
    }

    /// `counts` less `removed`, emoji by emoji; an emoji left with no reaction is dropped.
    static func reactionCounts(_ counts: [ReactionCount], without removed: [ReactionCount]) -> [ReactionCount] {
        let less = Dictionary(removed.map { ($0.emoji, $0.count) }, uniquingKeysWith: +)
        return counts.compactMap { count in
            let left = count.count - (less[count.emoji] ?? 0)
            return left > 0 ? ReactionCount(emoji: count.emoji, count: left) : nil
        }
    }
}
