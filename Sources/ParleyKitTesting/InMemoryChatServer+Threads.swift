import ParleyKit
import ParleyWireCore

/// Threads, quotes and mentions in the in-memory server, as docs/threads.md describes them:
/// replies join their root's thread (one level deep), the root counts them and keeps the last
/// three repliers, thread-only replies take a seq but stay out of history and unread counts,
/// quotes are snapshots that read as deleted once the original is, and mentions are resolved
/// against the members once, when the message is sent.
extension InMemoryChatServer {
    /// What a send refers to, checked before it is stored.
    struct SendReferences {
        var rootID: Int64?
        var showInRoom = true
        var quote: QuotedMessage?
        var mentions: [String] = []
    }

    /// Reads `parent_id`, `show_in_room` and `quoted_message_id` of a send's body; a value of
    /// the wrong type is `invalid_request`, `show_in_room` without a parent `validation_failed`.
    static func threadFields(_ body: JSONValue) throws -> (parentID: Int64?, showInRoom: Bool?, quotedID: Int64?) {
        func id(_ key: String) throws -> Int64? {
            guard let value = body[key], value != .null else { return nil }
            guard let int = value.intValue else { throw Failure(status: 400, code: "invalid_request") }
            guard int > 0 else { throw Failure(status: 422, code: "validation_failed") }
            return Int64(int)
        }
        let parent = try id("parent_id"), quoted = try id("quoted_message_id")
        var showInRoom: Bool?
        if let value = body["show_in_room"], value != .null {
            guard let flag = value.boolValue else { throw Failure(status: 400, code: "invalid_request") }
            showInRoom = flag
        }
        if showInRoom != nil, parent == nil { throw Failure(status: 422, code: "validation_failed") }
        return (parent, showInRoom, quoted)
    }

    /// Checks the parent and the quoted message and resolves the mentions of `parts`.
    static func references(
        _ record: RoomRecord, sender: String, parts: [MessagePart], parentID: Int64?, showInRoom: Bool, quotedID: Int64?
    ) throws -> SendReferences {
        var references = SendReferences()
        if let parentID {
            guard let parent = record.messages.first(where: { $0.id == parentID }) else {
                throw Failure(status: 422, code: "parent_not_found")
            }
            let root = parent.parentID.flatMap { id in record.messages.first { $0.id == id } } ?? parent
            guard !parent.isDeleted, !root.isDeleted else { throw Failure(status: 422, code: "parent_deleted") }
            references.rootID = root.id
            references.showInRoom = showInRoom
        }
        if let quotedID {
            guard let quoted = record.messages.first(where: { $0.id == quotedID }) else {
                throw Failure(status: 422, code: "quoted_message_not_found")
            }
            guard !quoted.isDeleted else { throw Failure(status: 422, code: "quoted_message_deleted") }
            references.quote = QuotedMessage(id: quoted.id, senderID: quoted.senderID, parts: quoted.parts)
        }
        let candidates = MentionSyntax.candidates(in: parts.compactMap(\.text))
        references.mentions = candidates.filter { $0 != sender && record.members[$0] != nil }
        return references
    }

    /// Counts a new reply on its root: one more reply, the replier first among the last three.
    static func countReply(_ reply: ChatMessage, in record: inout RoomRecord) -> ThreadActivity? {
        guard let rootID = reply.parentID, let index = record.messages.firstIndex(where: { $0.id == rootID }) else { return nil }
        record.messages[index].replyCount += 1
        let repliers = [reply.senderID] + record.messages[index].lastReplierIDs.filter { $0 != reply.senderID }
        record.messages[index].lastReplierIDs = Array(repliers.prefix(3))
        return ThreadActivity(
            roomID: reply.roomID, rootID: rootID, replyCount: record.messages[index].replyCount,
            lastReplierIDs: record.messages[index].lastReplierIDs, replyID: reply.id, replySeq: reply.seq)
    }

    /// `thread.updated` on the room channel and `message.mentioned` on each mentioned member's
    /// channel, after the message's own events.
    static func threadEvents(_ message: ChatMessage, activity: ThreadActivity?) -> [Event] {
        var events: [Event] = []
        if let activity { events.append(Event(channel: "private-room-" + message.roomID, name: "thread.updated", data: activity.json)) }
        let data: JSONValue = .object(["room_id": .string(message.roomID), "seq": .int64(message.seq), "message": message.json])
        for user in message.mentions { events.append(Event(channel: "#server-to-user-" + user, name: "message.mentioned", data: data)) }
        return events
    }

    /// On delete: quotes of the message read as deleted.
    static func forgetQuotes(of deleted: ChatMessage, in record: inout RoomRecord) {
        for index in record.messages.indices where record.messages[index].quoted?.id == deleted.id {
            record.messages[index].quoted = QuotedMessage(id: deleted.id, senderID: deleted.senderID, parts: [], isDeleted: true)
        }
    }

    /// Whether a message shows in the room's history (thread-only replies do not).
    static func inHistory(_ message: ChatMessage) -> Bool { message.parentID == nil || message.showInRoom }

    /// Messages after `readSeq` that count as unread for `user`.
    static func unreadCount(_ record: RoomRecord, user: String, after readSeq: Int64) -> Int {
        record.messages.filter { $0.seq > readSeq && $0.senderID != user && !$0.isDeleted && inHistory($0) }.count
    }

    /// Messages after `readSeq` that mention `user`, deleted ones excluded.
    static func unreadMentions(_ record: RoomRecord, user: String, after readSeq: Int64) -> Int {
        record.messages.filter { $0.seq > readSeq && !$0.isDeleted && $0.mentions.contains(user) }.count
    }

    /// `GET …/messages/{id}/replies`: the thread's replies, paged like history.
    static func replies(_ record: RoomRecord, parent: String, _ query: [String: String]) throws -> JSONValue {
        guard let root = record.messages.first(where: { String($0.id) == parent }) else {
            throw Failure(status: 404, code: "message_not_found")
        }
        return page(record.messages.filter { $0.parentID == root.id }, query)
    }
}
