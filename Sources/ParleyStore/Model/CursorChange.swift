/// A read cursor after a set, and whether it moved.
public struct CursorChange: Sendable, Hashable {
    /// The cursor now.
    public var cursor: ReadCursor
    /// False when the requested seq was not ahead of the cursor (cursors never move backwards).
    public var moved: Bool

    /// Creates a value.
    public init(cursor: ReadCursor, moved: Bool) {
        self.cursor = cursor
        self.moved = moved
    }
}
