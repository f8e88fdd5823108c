/// The identifier of one UTF-16 unit (or other element) in a Yjs document: the client
/// that created it and that client's clock at the time.
public struct ItemID: Hashable, Sendable {
    /// The creating client's id.
    public var client: UInt64
    /// The client's clock, counted in UTF-16 code units for text.
    public var clock: Int

    /// Creates an identifier from a client id and a clock.
    public init(client: UInt64, clock: Int) {
        self.client = client
        self.clock = clock
    }
}
