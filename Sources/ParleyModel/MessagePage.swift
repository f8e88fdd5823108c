import ParleyWireCore

/// A page of a room's history, ascending by seq: `{"messages":[…],"has_more":…}`.
public struct MessagePage: Sendable, Equatable, Codable {
    /// The messages, ascending by seq.
    public var messages: [ChatMessage]
    /// Whether more lie beyond the far end (older for latest/before pages, newer for after pages).
    public var hasMore: Bool

    /// Creates a page.
    public init(messages: [ChatMessage], hasMore: Bool) {
        self.messages = messages
        self.hasMore = hasMore
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "history")
        var messages: [ChatMessage] = []
        for item in try r.array("messages") { messages.append(try ChatMessage(json: item)) }
        self.init(messages: messages, hasMore: try r.optionalBool("has_more") ?? false)
    }

    /// The API's form.
    public var json: JSONValue { .object(["messages": .array(messages.map(\.json)), "has_more": .bool(hasMore)]) }

    /// The API's form as bytes, written without building ``json`` (history answers carry up
    /// to hundreds of messages).
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + messages.count * 256)
        ChatMessage.append(#"{"messages":["#, to: &out)
        for (index, message) in messages.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            message.writeJSON(into: &out)
        }
        ChatMessage.append(hasMore ? #"],"has_more":true}"# : #"],"has_more":false}"#, to: &out)
        return out
    }
}
