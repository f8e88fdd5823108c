/// Size limits the store enforces on every write (violations throw `invalidArgument`).
public struct StoreLimits: Sendable, Hashable {
    /// The largest custom data (JSON text) of a user or room, in UTF-8 bytes.
    public var customDataBytes = 5 * 1024
    /// The most parts one message may have.
    public var partsPerMessage = 10
    /// The most characters (grapheme clusters) one text part may have.
    public var textCharacters = 4_000
    /// The most characters of a name (user or room), an id, an emoji or a URL.
    public var shortTextCharacters = 2_048
    /// The most messages one history page may return; larger requests are clamped.
    public var historyPage = 1_000

    /// The default limits.
    public init() {}
}
