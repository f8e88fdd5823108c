/// The Sans-I/O state machine of one WebSocket connection (RFC 6455, RFC 7692).
///
/// Feed it the bytes read from the socket with `receive`, execute the returned actions
/// in order; call `send`, `ping` or `close` to get the bytes of outgoing frames. It never
/// touches a socket or a clock: ping intervals and close timeouts belong to the I/O layer.
///
/// The struct holds its zlib streams copy-on-write, so copying a connection is safe but
/// costs a stream copy on the next compressed message; keep one value per connection.
public struct WebSocketConnection: Sendable {
    /// Which end of the connection this is; decides masking and compression sides.
    public enum Role: Sendable, Hashable {
        /// Accepts connections: expects masked frames, sends unmasked ones.
        case server
        /// Opens connections: masks every frame it sends.
        case client
    }

    /// Where the closing handshake stands.
    public enum State: Sendable, Hashable {
        /// Messages flow both ways.
        case open
        /// This end sent a close frame and waits for the peer's; incoming data is ignored.
        case closeSent
        /// The closing handshake finished or the connection failed; close the TCP connection.
        case closed
    }

    /// What the I/O layer must do after `receive`, in order.
    public enum Action: Sendable, Hashable {
        /// A complete message arrived.
        case message(WebSocketMessage)
        /// Bytes to send to the peer (pongs, close replies), before any later action.
        case write([UInt8])
        /// The peer pinged (the pong is already in a preceding `.write`).
        case ping([UInt8])
        /// The peer sent a pong.
        case pong([UInt8])
        /// The connection is over: write pending bytes, then close the TCP connection.
        /// `code` is the peer's status after a clean close (1005 if it sent none), or the
        /// code this end failed the connection with (1002, 1007, 1009, ...).
        case closed(code: WebSocketCloseCode, reason: String)
    }

    /// This end's role.
    public let role: Role
    /// Limits and negotiated compression.
    public let options: WebSocketOptions
    /// The closing-handshake state.
    public internal(set) var state: State = .open

    // Inbound state.
    var partialHeader: [UInt8] = []
    var frame: InboundFrame?
    var message: InboundMessage?
    var messageBuffer: [UInt8] = []
    var controlBuffer: [UInt8] = []
    var scratch: [UInt8] = []
    var utf8 = WebSocketUTF8Validator()
    var compressedReceived: UInt64 = 0
    var decompressor: WebSocketInflater?

    // Outbound state.
    var maskKeys = WebSocketMaskKeyPool()
    var compressor: WebSocketDeflater?
    var compressionUnavailable = false

    /// Creates a connection that has completed its opening handshake.
    public init(role: Role, options: WebSocketOptions = WebSocketOptions()) {
        self.role = role
        self.options = options
    }

    /// Whether messages may still be sent (no close frame sent or received).
    public var isOpen: Bool { state == .open }
}

extension WebSocketConnection {
    /// The frame whose payload is being received.
    struct InboundFrame {
        var opcode: WebSocketOpcode
        var fin: Bool
        var maskKey: UInt32?
        var remaining: UInt64
        var phase: Int
    }

    /// The data message being reassembled.
    struct InboundMessage {
        var isText: Bool
        var compressed: Bool
        /// Frames received for this message so far, and how many of them were empty and not final.
        var fragments = 0
        var emptyFragments = 0
    }
}
