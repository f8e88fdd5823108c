import ParleyKit

extension MessageRow {
    /// The row of a stored message as the signed-in user `me` sees it: `names` gives display
    /// names (ids where unknown), `cursors` the members' read positions for "seen".
    public init(message: ChatMessage, me: String, names: [String: String], cursors: [String: Int64]) {
        let outgoing = message.senderID == me
        let seenBy = cursors.filter { $0.key != message.senderID && $0.value >= message.seq }.keys.sorted()
        let text = message.text
        self.init(
            id: "m\(message.id)", messageID: message.id, seq: message.seq, clientID: message.clientID,
            senderID: message.senderID, senderName: names[message.senderID] ?? message.senderID, text: text,
            parts: message.parts, direction: outgoing ? .outgoing : .incoming,
            status: outgoing && !seenBy.isEmpty ? .seen : .sent, createdAt: message.createdAt,
            isEdited: message.editedAt != nil, isDeleted: message.isDeleted, reactions: message.reactions, seenBy: seenBy,
            parentID: message.parentID, replyCount: message.replyCount,
            lastReplierNames: message.lastReplierIDs.map { names[$0] ?? $0 }, quoted: message.quoted,
            quotedSenderName: message.quoted.map { names[$0.senderID] ?? $0.senderID }, mentions: message.mentions,
            mentionsMe: message.mentions.contains(me), mentionRanges: MentionHighlight.matches(in: text, mentions: message.mentions))
    }
}
