import ParleyWireCore

/// One part of a message.
public enum MessagePart: Sendable, Hashable {
    /// Text.
    case text(String)
    /// An uploaded attachment, by id.
    case attachment(id: String)
    /// A link.
    case url(String)

    /// The text of a text part.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    init(json: JSONValue) throws(ParleyError) {
        let r = try JSONReader(json, "part")
        switch try r.string("type") {
        case "text": self = .text(try r.string("text"))
        case "attachment": self = .attachment(id: try r.string("attachment_id"))
        case "url": self = .url(try r.string("url"))
        default: throw ParleyError(.decoding, "part: unknown type")
        }
    }

    package var json: JSONValue {
        switch self {
        case .text(let text): .object(["type": .string("text"), "text": .string(text)])
        case .attachment(let id): .object(["type": .string("attachment"), "attachment_id": .string(id)])
        case .url(let url): .object(["type": .string("url"), "url": .string(url)])
        }
    }

    package static func list(_ values: [JSONValue]) throws(ParleyError) -> [MessagePart] {
        var parts: [MessagePart] = []
        parts.reserveCapacity(values.count)
        for value in values { parts.append(try MessagePart(json: value)) }
        return parts
    }
}
