/// A message for everyone taking part in a document except its origin: a validated and
/// durable update, or an awareness change.
public struct DocumentBroadcast: Sendable, Hashable {
    /// What the message carries.
    public enum Kind: String, Sendable, Hashable {
        /// A document update (a y-protocols sync message of sub-type update), already durable.
        case update
        /// An awareness update (a y-protocols awareness message).
        case awareness
    }

    /// The Pusher event name documents use on their channel; its data is the y-protocols
    /// message in standard Base64, so Pusher clients and y-websocket peers see the same bytes.
    public static let pusherEvent = "doc-message"

    /// The app the document belongs to.
    public var app: String
    /// The document.
    public var documentID: String
    /// The kind of message.
    public var kind: Kind
    /// One complete y-protocols message, ready to send as a WebSocket binary message.
    public var message: [UInt8]
    /// The participant the change came from, who must not get it back; nil when it came from
    /// the server itself (a disconnect or a timeout).
    public var origin: DocumentParticipant?

    /// Creates a broadcast.
    public init(app: String, documentID: String, kind: Kind, message: [UInt8], origin: DocumentParticipant?) {
        self.app = app
        self.documentID = documentID
        self.kind = kind
        self.message = message
        self.origin = origin
    }

    /// The document's private realtime channel, `private-doc-{id}`.
    public var pusherChannel: String { Self.pusherChannel(for: documentID) }

    /// The private realtime channel of document `id`.
    public static func pusherChannel(for id: String) -> String { "private-doc-\(id)" }

    /// The document id a `private-doc-{id}` channel names, or nil for other channels.
    public static func documentID(fromChannel channel: String) -> String? {
        let prefix = "private-doc-"
        guard channel.hasPrefix(prefix), channel.count > prefix.count else { return nil }
        return String(channel.dropFirst(prefix.count))
    }
}
