/// Which clients an awareness operation added, updated (clock renewed) or removed.
public struct AwarenessChange: Equatable, Sendable {
    /// Clients that had no state before and have one now.
    public var added: [UInt64] = []
    /// Clients whose state was replaced or renewed with a newer clock.
    public var updated: [UInt64] = []
    /// Clients whose state was removed.
    public var removed: [UInt64] = []

    /// Creates a change.
    public init(added: [UInt64] = [], updated: [UInt64] = [], removed: [UInt64] = []) {
        self.added = added
        self.updated = updated
        self.removed = removed
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty }

    /// Every client the change touched: the ones peers must be told about.
    public var changedClients: [UInt64] { added + updated + removed }
}
