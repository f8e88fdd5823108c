/// Turns frames into terminal output, redrawing only the rows that changed since the last
/// frame — no clearing between frames, so nothing flickers. Sans-I/O: bytes out.
public struct FrameWriter: Sendable {
    private var previous: [[UInt8]] = []
    private var previousSize: TerminalSize?

    /// Creates a writer that will draw its first frame in full.
    public init() {}

    /// Forgets the screen's contents: the next frame is drawn in full (after a resize, or
    /// when the screen may have been disturbed).
    public mutating func invalidate() {
        previous = []
        previousSize = nil
    }

    /// The bytes that change the screen from the last frame to `frame`.
    public mutating func render(_ frame: Frame) -> [UInt8] {
        var out: [UInt8] = []
        let full = frame.size != previousSize
        if full { out += Array("\u{1B}[0m\u{1B}[2J".utf8) }
        // Hide the cursor while drawing so it never flashes across the screen.
        out += Array("\u{1B}[?25l".utf8)
        var rows: [[UInt8]] = []
        rows.reserveCapacity(frame.lines.count)
        for (index, line) in frame.lines.enumerated() {
            let bytes = line.ansi
            rows.append(bytes)
            if !full, index < previous.count, previous[index] == bytes { continue }
            out += Self.moveTo(row: index, column: 0)
            out += bytes
        }
        if let cursor = frame.cursor {
            out += Self.moveTo(row: cursor.row, column: cursor.column)
            out += Array("\u{1B}[?25h".utf8)
        }
        previous = rows
        previousSize = frame.size
        return out
    }

    static func moveTo(row: Int, column: Int) -> [UInt8] {
        Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
    }
}
