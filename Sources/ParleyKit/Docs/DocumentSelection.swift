/// A cursor or selection in a document, in Unicode-scalar positions: `anchor` is where it
/// started, `head` where the caret is; equal for a plain cursor.
public struct DocumentSelection: Sendable, Hashable {
    /// Where the selection started.
    public var anchor: Int
    /// Where the caret is.
    public var head: Int

    /// Creates a selection.
    public init(anchor: Int, head: Int) {
        self.anchor = anchor
        self.head = head
    }

    /// A plain cursor at `position`.
    public static func cursor(_ position: Int) -> DocumentSelection { DocumentSelection(anchor: position, head: position) }

    /// The selected range (empty for a cursor).
    public var range: Range<Int> { min(anchor, head)..<max(anchor, head) }

    /// The selection moved into `0...count`.
    public func clamped(to count: Int) -> DocumentSelection {
        DocumentSelection(anchor: min(max(anchor, 0), count), head: min(max(head, 0), count))
    }
}
