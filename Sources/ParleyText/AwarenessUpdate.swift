/// An awareness update of y-protocols: for some clients, a clock and a JSON state.
///
/// A state of JSON `null` (``Entry/state`` nil) says the client is gone. The JSON text is
/// carried as it came; this codec checks only that it is UTF-8.
public struct AwarenessUpdate: Equatable, Sendable {
    /// One client's entry in an update.
    public struct Entry: Equatable, Sendable {
        /// The client's awareness id (its document client id in Yjs).
        public var clientID: UInt64
        /// The client's awareness clock; a higher clock replaces a lower one.
        public var clock: UInt64
        /// The client's state as JSON text, or nil for `null` (the client is gone).
        public var state: String?

        /// Creates an entry.
        public init(clientID: UInt64, clock: UInt64, state: String?) {
            self.clientID = clientID
            self.clock = clock
            self.state = state
        }
    }

    /// The JSON text that marks a removed client.
    public static let nullState = "null"

    /// The entries, in wire order.
    public var entries: [Entry]

    /// Creates an update from entries.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Decodes the payload of an awareness message.
    /// - Throws: a ``YSyncError`` unless `bytes` are exactly one well-formed update.
    public static func decode(_ bytes: [UInt8]) throws(YSyncError) -> AwarenessUpdate {
        var reader = ByteReader(bytes)
        let count = try reader.lib0SafeInteger()
        // Each entry takes at least three bytes, which bounds what a length may claim.
        guard count <= UInt64(reader.remaining / 3) else { throw .truncated }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let clientID = try reader.lib0SafeInteger()
            let clock = try reader.lib0SafeInteger()
            let json = try reader.lib0VarString()
            entries.append(Entry(clientID: clientID, clock: clock, state: json == nullState ? nil : json))
        }
        guard reader.isAtEnd else { throw .trailingBytes }
        return AwarenessUpdate(entries: entries)
    }

    /// Encodes the update as the payload of an awareness message.
    public func encode() -> [UInt8] {
        var writer = ByteWriter(capacity: 8 + entries.count * 32)
        writer.writeVarUInt(entries.count)
        for entry in entries {
            writer.writeVarUInt(entry.clientID)
            writer.writeVarUInt(entry.clock)
            writer.writeVarString(Array((entry.state ?? Self.nullState).utf8))
        }
        return writer.bytes
    }
}
