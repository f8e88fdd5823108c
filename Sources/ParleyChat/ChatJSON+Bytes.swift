import ParleyStore
import ParleyWire

/// Messages written straight to JSON bytes, for answers that carry many of them (history
/// pages): the same bytes as serialising `ChatJSON.message`, without building the tree of
/// `JSONValue`s first.
extension ChatJSON {
    /// Appends the JSON of `message` (member order and form exactly as `message(_:)`).
    static func writeMessage(_ message: Message, into out: inout [UInt8]) {
        append(#"{"id":"#, to: &out)
        writeInteger(message.id, into: &out)
        append(#","room_id":"#, to: &out)
        JSONWriter.writeString(message.roomID, into: &out)
        append(#","seq":"#, to: &out)
        writeInteger(message.seq, into: &out)
        append(#","sender_id":"#, to: &out)
        JSONWriter.writeString(message.senderID, into: &out)
        append(#","client_id":"#, to: &out)
        if let clientID = message.clientID { JSONWriter.writeString(clientID, into: &out) } else { append("null", to: &out) }
        append(#","parts":["#, to: &out)
        for (index, part) in message.parts.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writePart(part, into: &out)
        }
        append(#"],"created_at":"#, to: &out)
        writeInteger(message.createdAt, into: &out)
        append(#","edited_at":"#, to: &out)
        writeOptionalInteger(message.editedAt, into: &out)
        append(#","deleted_at":"#, to: &out)
        writeOptionalInteger(message.deletedAt, into: &out)
        append(message.isDeleted ? #","deleted":true,"reactions":["# : #","deleted":false,"reactions":["#, to: &out)
        for (index, reaction) in message.reactions.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(#"{"emoji":"#, to: &out)
            JSONWriter.writeString(reaction.emoji, into: &out)
            append(#","count":"#, to: &out)
            writeInteger(Int64(reaction.count), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        append("]}", to: &out)
    }

    /// A history page: `{"messages":[…],"has_more":…}`.
    static func historyPage(_ messages: [Message], hasMore: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + messages.count * 256)
        append(#"{"messages":["#, to: &out)
        for (index, message) in messages.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeMessage(message, into: &out)
        }
        append(hasMore ? #"],"has_more":true}"# : #"],"has_more":false}"#, to: &out)
        return out
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
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func writeOptionalInteger(_ value: Int64?, into out: inout [UInt8]) {
        if let value { writeInteger(value, into: &out) } else { append("null", to: &out) }
    }

    /// Decimal digits without a String in between.
    private static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
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
    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
