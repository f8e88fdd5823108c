/// A whole screen: exactly `size.rows` lines of `size.columns` columns, and where the cursor goes.
public struct Frame: Sendable, Equatable {
    /// The terminal size it was made for.
    public var size: TerminalSize
    /// The rows, top to bottom, each fitted to the width.
    public var lines: [StyledLine]
    /// The cursor's row and column (0-based), or nil to hide it.
    public var cursor: (row: Int, column: Int)?

    /// Creates a frame; lines are fitted and padded (or cut) to the size.
    public init(size: TerminalSize, lines: [StyledLine], cursor: (row: Int, column: Int)?) {
        self.size = size
        var fitted = lines.prefix(size.rows).map { $0.fitted(to: size.columns) }
        while fitted.count < size.rows { fitted.append(StyledLine().fitted(to: size.columns)) }
        self.lines = fitted
        self.cursor = cursor
    }

    /// The screen as plain text, one row per line, trailing blanks removed (tests and logs).
    public var text: String {
        lines.map { line in
            var row = line.text
            while row.last == " " { row.removeLast() }
            return row
        }.joined(separator: "\n")
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.size == rhs.size && lhs.lines == rhs.lines && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }
}
