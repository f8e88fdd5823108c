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

    /// The default message limit: 64 KiB.
    public static let defaultMaxMessageSize = 64 * 1024

    /// Creates options.
    public init(maxMessageSize: Int = WebSocketOptions.defaultMaxMessageSize,
                deflate: WebSocketDeflateParameters? = nil,
                compressionLevel: Int32 = 6, compressionMemoryLevel: Int32 = 8,
                compressionThreshold: Int = 0) {
        self.maxMessageSize = max(0, maxMessageSize)
        self.deflate = deflate
        self.compressionLevel = compressionLevel
        self.compressionMemoryLevel = compressionMemoryLevel
        self.compressionThreshold = compressionThreshold
    }
}
