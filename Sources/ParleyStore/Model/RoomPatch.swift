/// A partial update of a room; fields left at `.keep` do not change.
public struct RoomPatch: Sendable, Hashable {
    /// The new name (`.set(nil)` removes it).
    public var name: Patch<String?>
    /// The new custom data (`.set(nil)` removes it).
    public var customData: Patch<String?>
    /// Switch between `.public` and `.private` (direct rooms keep their kind).
    public var kind: Patch<RoomKind>

    /// Describes a room update.
    public init(name: Patch<String?> = .keep, customData: Patch<String?> = .keep, kind: Patch<RoomKind> = .keep) {
        self.name = name
        self.customData = customData
        self.kind = kind
    }
}
