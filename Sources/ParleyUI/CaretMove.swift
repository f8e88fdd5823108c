/// A caret movement in a text of lines, in Unicode scalars: pure arithmetic the editor model
/// applies to the text and caret as they are at that moment.
public enum CaretMove: Sendable, Equatable {
    /// One character back.
    case left
    /// One character on.
    case right
    /// The same column on the line above (or its end).
    case up
    /// The same column on the line below (or its end).
    case down
    /// The start of the line.
    case lineStart
    /// The end of the line.
    case lineEnd

    /// Where a caret at `caret` in `text` goes.
    public func apply(to caret: Int, in text: String) -> Int {
        let scalars = Array(text.unicodeScalars)
        let caret = min(max(caret, 0), scalars.count)
        let start = Self.lineStart(of: caret, in: scalars)
        let end = Self.lineEnd(of: caret, in: scalars)
        switch self {
        case .left: return max(0, caret - 1)
        case .right: return min(scalars.count, caret + 1)
        case .lineStart: return start
        case .lineEnd: return end
        case .up:
            guard start > 0 else { return 0 }
            let previousStart = Self.lineStart(of: start - 1, in: scalars)
            return min(previousStart + (caret - start), start - 1)
        case .down:
            guard end < scalars.count else { return scalars.count }
            let nextStart = end + 1
            return min(nextStart + (caret - start), Self.lineEnd(of: nextStart, in: scalars))
        }
    }

    static func lineStart(of position: Int, in scalars: [Unicode.Scalar]) -> Int {
        var index = position
        while index > 0 && scalars[index - 1] != "\n" { index -= 1 }
        return index
    }

    static func lineEnd(of position: Int, in scalars: [Unicode.Scalar]) -> Int {
        var index = position
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
        return index
    }
}
