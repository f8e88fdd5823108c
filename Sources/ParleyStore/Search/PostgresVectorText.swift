/// A `tsvector` as PostgreSQL writes it in text: each lexeme with how many positions it holds.
///
/// The text form is `'lexeme':1,4B 'other':2 'bare'`: every lexeme in single quotes (a quote
/// inside doubled, a backslash behind another backslash), then, when it has positions, a colon
/// and the positions separated by commas, each maybe followed by a weight letter. A search reads
/// its candidates' vectors this way and scores them here, which costs a fraction of taking each
/// vector apart in SQL (`unnest` once per query word and candidate).
struct PostgresVectorText: Sendable {
    /// One lexeme of the vector.
    struct Entry: Sendable, Equatable {
        /// The lexeme's UTF-8 bytes, unquoted: a slice of the text's bytes unless it held an
        /// escape (most do not, and a search reads 200 vectors of a dozen lexemes each).
        var lexeme: ArraySlice<UInt8>
        /// How many positions it holds (0 when the vector carries none).
        var positions: Int
    }

    /// The lexemes in the order the text gives them (PostgreSQL's: sorted, each once).
    private(set) var entries: [Entry] = []

    /// Reads `text`; a malformed tail (which PostgreSQL does not write) ends the reading there.
    init(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while let entry = Self.entry(&bytes) { entries.append(entry) }
    }

    /// The words in all: every lexeme's positions counted.
    var length: Int { entries.reduce(0) { $0 + $1.positions } }

    /// How often the vector holds each of `words`, in their order, reading each lexeme without its
    /// first `tagBytes` bytes (the room's tag); the last word counts every lexeme it begins when
    /// `lastIsPrefix`.
    func frequencies(of words: [String], tagBytes: Int, lastIsPrefix: Bool) -> [Int] {
        let targets = words.map { Array($0.utf8) }
        return targets.enumerated().map { index, target in
            let prefix = lastIsPrefix && index == targets.count - 1
            return entries.reduce(0) { total, entry in
                guard entry.lexeme.count >= tagBytes else { return total }
                let word = entry.lexeme.dropFirst(tagBytes)
                let matches = prefix ? word.starts(with: target) : word.elementsEqual(target)
                return matches ? total + entry.positions : total
            }
        }
    }

    private static let quote = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")
    private static let comma = UInt8(ascii: ",")
    private static let space = UInt8(ascii: " ")

    /// The next entry of `bytes`, consumed, or nil at the end or at anything malformed.
    private static func entry(_ bytes: inout ArraySlice<UInt8>) -> Entry? {
        while bytes.first == space { bytes.removeFirst() }
        guard bytes.first == quote else { return nil }
        bytes.removeFirst()
        guard let lexeme = quotedLexeme(&bytes) else { return nil }
        return Entry(lexeme: lexeme, positions: positions(&bytes))
    }

    /// The lexeme up to its closing quote (consumed), quotes and backslashes unescaped.
    private static func quotedLexeme(_ bytes: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let end = bytes.firstIndex(where: { $0 == quote || $0 == backslash }) else { return nil }
        if bytes[end] == quote, bytes.index(after: end) == bytes.endIndex || bytes[bytes.index(after: end)] != quote {
            defer { bytes = bytes[bytes.index(after: end)...] }
            return bytes[..<end]
        }
        return unescapedLexeme(&bytes)
    }

    /// ``quotedLexeme(_:)`` for a lexeme holding an escape: copied out, unescaped.
    private static func unescapedLexeme(_ bytes: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var lexeme: [UInt8] = []
        while let byte = bytes.popFirst() {
            switch byte {
            case backslash:
                guard let escaped = bytes.popFirst() else { return nil }
                lexeme.append(escaped)
            case quote:
                guard bytes.first == quote else { return lexeme[...] }
                bytes.removeFirst()
                lexeme.append(quote)
            default:
                lexeme.append(byte)
            }
        }
        return nil
    }

    /// The number of positions after a lexeme (consumed): one more than the commas after its colon.
    private static func positions(_ bytes: inout ArraySlice<UInt8>) -> Int {
        guard bytes.first == colon else { return 0 }
        bytes.removeFirst()
        var count = 1
        while let byte = bytes.first, byte != space {
            if byte == comma { count += 1 }
            bytes.removeFirst()
        }
        return count
    }
}
