import ParleyWireCore

// Codable models: each encodes as the server's JSON for it (snake_case keys, times in
// milliseconds), so a value saved with JSONEncoder reads back with JSONDecoder, and the
// server's answers decode with either.

/// A model with a JSON form: its Codable conformance goes through that form.
protocol WireJSONCodable: Codable {
    init(json: JSONValue?) throws(ParleyError)
    var json: JSONValue { get }
}

extension WireJSONCodable {
    /// Reads the server's JSON form of the value.
    public init(from decoder: any Decoder) throws { try self.init(json: try JSONValue(from: decoder)) }
    /// Writes the server's JSON form of the value.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

extension ChatMessage: WireJSONCodable {}
extension ChatRoom: WireJSONCodable {}
extension ChatUser: WireJSONCodable {}
extension RoomSummary: WireJSONCodable {}
extension ReadCursor: WireJSONCodable {}
extension PresenceStatus: WireJSONCodable {}
extension Attachment: WireJSONCodable {}
extension MessagePart: WireJSONCodable {}
extension Membership: WireJSONCodable {}
extension DeviceRegistration: WireJSONCodable {}
extension MemberRole: Codable {}
extension ChatRoom.Kind: Codable {}
extension SearchResult: WireJSONCodable {}
extension SearchResultPage: WireJSONCodable {}
