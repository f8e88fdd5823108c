import ParleyWireCore

// Messages written straight to JSON bytes, for answers that carry many of them (history
// pages): the same bytes as serialising `json`, without building the tree of `JSONValue`s.
extension ChatMessage {
    /// Appends the API's form (member order and form exactly as ``json``).
    public func writeJSON(into out: inout [UInt8]) {
        Self.append(#"{"id":"#, to: &out)
        Self.writeInteger(id, into: &out)
        Self.append(#","room_id":"#, to: &out)
        JSONWriter.writeString(roomID, into: &out)
        Self.append(#","seq":"#, to: &out)
        Self.writeInteger(seq, into: &out)
        Self.append(#","sender_id":"#, to: &out)
        JSONWriter.writeString(senderID, into: &out)
        Self.append(#","client_id":"#, to: &out)
        if let clientID { JSONWriter.writeString(clientID, into: &out) } else { Self.append("null", to: &out) }
        Self.append(#","parts":["#, to: &out)
        for (index, part) in parts.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.writePart(part, into: &out)
        }
        Self.append(#"],"created_at":"#, to: &out)
        Self.writeInteger(createdAt, into: &out)
        Self.append(#","edited_at":"#, to: &out)
        Self.writeOptionalInteger(editedAt, into: &out)
        Self.append(#","deleted_at":"#, to: &out)
        Self.writeOptionalInteger(deletedAt, into: &out)
        Self.append(isDeleted ? #","deleted":true,"reactions":["# : #","deleted":false,"reactions":["#, to: &out)
        for (index, reaction) in reactions.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.append(#"{"emoji":"#, to: &out)
            JSONWriter.writeString(reaction.emoji, into: &out)
            Self.append(#","count":"#, to: &out)
            Self.writeInteger(Int64(reaction.count), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        writeThreadFields(into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The members after `reactions`: thread, quote and mentions.
    private func writeThreadFields(into out: inout [UInt8]) {
        Self.append(#"],"parent_id":"#, to: &out)
        Self.writeOptionalInteger(parentID, into: &out)
        Self.append(showInRoom ? #","show_in_room":true,"reply_count":"# : #","show_in_room":false,"reply_count":"#, to: &out)
        Self.writeInteger(Int64(replyCount), into: &out)
        Self.append(#","last_replier_ids":"#, to: &out)
        Self.writeStrings(lastReplierIDs, into: &out)
        Self.append(#","quoted_message":"#, to: &out)
        if let quoted {
            Self.append(#"{"id":"#, to: &out)
            Self.writeInteger(quoted.id, into: &out)
            Self.append(#","sender_id":"#, to: &out)
            JSONWriter.writeString(quoted.senderID, into: &out)
            Self.append(#","parts":["#, to: &out)
            for (index, part) in quoted.parts.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writePart(part, into: &out)
            }
            Self.append(quoted.isDeleted ? #"],"deleted":true}"# : #"],"deleted":false}"#, to: &out)
        } else {
            Self.append("null", to: &out)
        }
        Self.append(#","mentions":"#, to: &out)
        Self.writeStrings(mentions, into: &out)
    }

    private static func writeStrings(_ strings: [String], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(string, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writePart(_ part: MessagePart, into out: inout [UInt8]) {
        switch part {
        case .text(let text):
            append(#"{"type":"text","text":"#, to: &out)
            JSONWriter.writeString(text, into: &out)
        case .attachment(let id):
            append(#"{"type":"attachment","attachment_id":"#, to: &out)
            JSONWriter.writeString(id, into: &out)
        case .url(let url):
            append(#"{"type":"url","url":"#, to: &out)
            JSONWriter.writeString(url, into: &out)
        case .file(let file):
            // Rare next to text: the value's own writer is fast enough.
            out.append(contentsOf: JSONWriter.serialize(file.json).dropLast())
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func writeOptionalInteger(_ value: Int64?, into out: inout [UInt8]) {
        if let value { writeInteger(value, into: &out) } else { append("null", to: &out) }
    }

    /// Decimal digits without a String in between.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// Appends ASCII literal text.
    @inline(__always)
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
