/// The permessage-deflate settings both ends agreed on in the handshake (RFC 7692).
///
/// "Server" and "client" name who compresses: `serverMaxWindowBits` bounds the window the
/// server compresses with, `clientNoContextTakeover` makes the client reset its compressor
/// after every message, and so on. A connection picks its side from its role.
public struct WebSocketDeflateParameters: Sendable, Hashable {
    /// The server resets its compressor after each message.
    public var serverNoContextTakeover: Bool
    /// The client resets its compressor after each message.
    public var clientNoContextTakeover: Bool
    /// LZ77 window of the server's compressor, 8–15.
    public var serverMaxWindowBits: Int
    /// LZ77 window of the client's compressor, 8–15.
    public var clientMaxWindowBits: Int

    /// Creates parameters; the defaults are RFC 7692's (context kept, 32 KiB windows).
    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// The extension name.
    public static let extensionName = "permessage-deflate"

    /// Parses a window-bits value: exactly one of "8"..."15" (RFC 7692 §7.1.2.1).
    static func windowBits(_ value: String?) -> Int? {
        guard let value, let bits = Int(value), (8...15).contains(bits), String(bits) == value else { return nil }
        return bits
    }
}

/// What one endpoint is willing to agree to for permessage-deflate.
///
/// On a server this is its policy when answering offers; on a client it shapes the offer.
public struct WebSocketDeflateOptions: Sendable, Hashable {
    /// Server: always make the server reset per message. Client: ask the server to.
    public var serverNoContextTakeover: Bool
    /// Server: ask the client to reset per message. Client: announce that it will.
    public var clientNoContextTakeover: Bool
    /// Server: largest window it compresses with. Client: ask the server for at most this.
    public var serverMaxWindowBits: Int?
    /// Server: ask the client for at most this window (only possible when the client
    /// offered `client_max_window_bits`). Client: the window it compresses with; nil offers
    /// the valueless `client_max_window_bits` (any value the server picks is fine).
    public var clientMaxWindowBits: Int?

    /// Creates options; with no arguments, accept the client's terms with full windows.
    public init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits.map { min(15, max(8, $0)) }
        self.clientMaxWindowBits = clientMaxWindowBits.map { min(15, max(8, $0)) }
    }
}
