/// Settings of one WebSocket connection: limits and the negotiated compression.
public struct WebSocketOptions: Sendable, Hashable {
    /// Largest message accepted, in bytes after decompression; larger ones close with 1009.
    public var maxMessageSize: Int
    /// The permessage-deflate parameters agreed in the handshake; nil sends and accepts
    /// uncompressed messages only.
    public var deflate: WebSocketDeflateParameters?
    /// zlib compression level for outgoing messages (1 fastest … 9 smallest).
    public var compressionLevel: Int32
    /// zlib memLevel for the compressor (1–9; lower uses less memory per connection).
    public var compressionMemoryLevel: Int32
    /// Outgoing messages shorter than this go uncompressed even when deflate is on
    /// (compression costs more than it saves on tiny messages).
    public var compressionThreshold: Int
    /// Most frames one message may arrive in; more closes with 1008. Fragments with no
    /// payload cost nothing against `maxMessageSize`, so without this bound a peer could keep
    /// one message open forever.
    public var maxFragmentsPerMessage: Int
    /// Most non-final fragments with no payload one message may hold; more closes with 1008.
    /// An empty fragment carries nothing a peer needs to send more than a few of.
    public var maxEmptyFragmentsPerMessage: Int

    /// The default message limit: 64 KiB.
    public static let defaultMaxMessageSize = 64 * 1024
    /// The default bound on frames per message: 1,024.
    public static let defaultMaxFragmentsPerMessage = 1024
    /// The default bound on empty non-final fragments per message: 16.
    public static let defaultMaxEmptyFragmentsPerMessage = 16

    /// Creates options.
    public init(
        maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize,
        deflate: WebSocketDeflateParameters? = nil,
        compressionLevel: Int32 = 6, compressionMemoryLevel: Int32 = 8,
        compressionThreshold: Int = 0,
        maxFragmentsPerMessage: Int = WebSocketOptions.defaultMaxFragmentsPerMessage,
        maxEmptyFragmentsPerMessage: Int = WebSocketOptions.defaultMaxEmptyFragmentsPerMessage
    ) {
        self.maxMessageSize = max(0, maxMessageSize)
        self.deflate = deflate
        self.compressionLevel = compressionLevel
        self.compressionMemoryLevel = compressionMemoryLevel
        self.compressionThreshold = compressionThreshold
        self.maxFragmentsPerMessage = max(1, maxFragmentsPerMessage)
        self.maxEmptyFragmentsPerMessage = max(0, maxEmptyFragmentsPerMessage)
    }
}
