/// `SearchTokenizer`'s tables as PostgreSQL regular-expression classes and `translate`
/// arguments, for the functions of migration 8.
extension SearchTokenizer {
    /// A bracket expression matching the code points of `ranges` (escapes, so any locale reads it alike).
    static func postgresClass(_ ranges: [ClosedRange<UInt32>]) -> String {
        "[" + ranges.map { escape($0.lowerBound) + (($0.count > 1) ? "-" + escape($0.upperBound) : "") }.joined() + "]"
    }

    /// Everything `role(of:)` calls a separator: ASCII but letters and digits, and `separatorRanges`.
    static var postgresSeparators: String {
        let ascii: [ClosedRange<UInt32>] = [0x01...0x2F, 0x3A...0x60, 0x7B...0x7F]
        return postgresClass(ascii + separatorRanges)
    }

    /// The letters `foldPairs` folds, in order.
    static var postgresFoldFrom: String {
        foldPairs.map(\.0).joined()
    }

    /// Their base letters, one for each.
    static var postgresFoldTo: String {
        foldPairs.map { String(repeating: String($0.1), count: $0.0.unicodeScalars.count) }.joined()
    }

    private static func escape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return value > 0xFFFF
            ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
            : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
