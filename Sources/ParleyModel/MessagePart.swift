import ParleyWireCore

/// One part of a message.
public enum MessagePart: Sendable, Hashable {
    /// Text.
    case text(String)
    /// An uploaded attachment of the same room, by id.
    case attachment(id: String)
    /// A link.
    case url(String)
    /// A file of any type, with its metadata (an uploaded attachment of the same room).
    case file(FilePart)

    /// The text of a text part.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// Reads the API's form: `{"type":"text","text":…}`, `{"type":"attachment","attachment_id":…}`
    /// `{"type":"url","url":…}` or `{"type":"file","attachment_id":…,"name":…,…}`; another type
    /// is an error, not a part to skip.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "part")
        switch try r.string("type") {
        case "text": self = .text(try r.string("text"))
        case "attachment": self = .attachment(id: try r.string("attachment_id"))
        case "url": self = .url(try r.string("url"))
        case "file": self = .file(try FilePart(json: r))
        case let other: throw ParleyError(.decoding, "part: unknown type \(other)")
        }
    }

    /// The API's form.
    public var json: JSONValue {
        switch self {
        case .text(let text): .object(["type": .string("text"), "text": .string(text)])
        case .attachment(let id): .object(["type": .string("attachment"), "attachment_id": .string(id)])
        case .url(let url): .object(["type": .string("url"), "url": .string(url)])
        case .file(let file): file.json
        }
    }

    /// The file of a file part.
    public var file: FilePart? {
        if case .file(let file) = self { return file }
        return nil
    }

    /// The attachment a part refers to (attachment and file parts).
    public var attachmentID: String? {
        switch self {
        case .attachment(let id): id
        case .file(let file): file.attachmentID
        case .text, .url: nil
        }
    }

    /// Reads a list of parts; one unreadable part fails the list.
    public static func list(_ values: [JSONValue]) throws(ParleyError) -> [MessagePart] {
        var parts: [MessagePart] = []
        parts.reserveCapacity(values.count)
        for value in values { parts.append(try MessagePart(json: value)) }
        return parts
    }
}
