import ParleyWireCore

/// The message a reply quotes, as it was when the reply was sent: later edits of the original
/// do not change the quote, and once the original is deleted the quote reads as deleted (its
/// parts are then empty).
public struct QuotedMessage: Sendable, Hashable {
    /// The quoted message's id.
    public var id: Int64
    /// The quoted message's author.
    public var senderID: String
    /// The original's parts at the time of the quote; empty once the original is deleted.
    public var parts: [MessagePart]
    /// Whether the original has been deleted since.
    public var isDeleted: Bool

    /// Creates a quote.
    public init(id: Int64, senderID: String, parts: [MessagePart], isDeleted: Bool = false) {
        self.id = id
        self.senderID = senderID
        self.parts = isDeleted ? [] : parts
        self.isDeleted = isDeleted
    }

    /// The quoted text parts joined by newlines.
    public var text: String { parts.compactMap(\.text).joined(separator: "\n") }

    /// Reads `{"id","sender_id","parts","deleted"}`.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "quoted message")
        self.init(
            id: try r.int64("id"), senderID: try r.string("sender_id"), parts: try MessagePart.list(try r.arrayIfPresent("parts")),
            isDeleted: try r.optionalBool("deleted") ?? false)
    }

    /// The API's form.
    public var json: JSONValue {
        .object([
            "id": .int64(id), "sender_id": .string(senderID), "parts": .array(parts.map(\.json)), "deleted": .bool(isDeleted)
        ])
    }
}
