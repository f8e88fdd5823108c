/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Hashable {
    /// Rows.
    public var rows: Int
    /// Columns.
    public var columns: Int

    /// Creates a size (at least 1×1).
    public init(rows: Int, columns: Int) {
        self.rows = max(1, rows)
        self.columns = max(1, columns)
    }
}
