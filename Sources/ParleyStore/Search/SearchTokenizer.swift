/// Cuts text into the words search indexes and matches, the same way for messages and queries.
///
/// - A word is a run of letters, digits and combining marks, lowercased, with the diacritics
///   of Latin letters removed (`Café` and `cafe` are one word; see ``latinFolds``).
/// - Han, kana and Hangul are written without spaces between words, so each of their
///   characters is a word of its own; a query of several such characters asks for all of them.
/// - Each emoji is a word written as `u` and its code point in hex (😀 is `u1f600`), because
///   full-text parsers drop symbols. Skin-tone modifiers, variation selectors and joiners are
///   left out, so 👍🏽 is found by 👍.
/// - Anything else (spaces, punctuation, other symbols) separates words.
///
/// PostgreSQL's migration builds its SQL version of these rules from the same tables.
public enum SearchTokenizer {
    /// The longest word kept, in UTF-8 bytes; longer runs (pasted data, not words) are cut there.
    public static let maximumWordBytes = 64

    /// The words of `text`, in order, repeats included.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        forEachToken(in: text, ranges: false) { word, _ in words.append(word) }
        return words
    }

    /// The words of `text` with their UTF-16 ranges, for marking matches.
    public static func tokens(in text: String) -> [SearchToken] {
        var tokens: [SearchToken] = []
        forEachToken(in: text, ranges: true) { word, range in tokens.append(SearchToken(word: word, utf16Range: range)) }
        return tokens
    }

    /// The text search indexes for a message: its text parts and the names of its files, as
    /// words separated by single spaces; nil when there is nothing to index.
    public static func document(for parts: [MessagePart]) -> String? {
        var document: [UInt8] = []
        for part in parts {
            guard var text = searchableText(of: part) else { continue }
            let wasASCII = text.withUTF8 { bytes in appendASCIIWords(of: bytes, to: &document) }
            if wasASCII { continue }
            forEachToken(in: text, ranges: false) { word, _ in
                if !document.isEmpty { document.append(UInt8(ascii: " ")) }
                document.append(contentsOf: word.utf8)
            }
        }
        return document.isEmpty ? nil : String(decoding: document, as: UTF8.self)
    }

    /// Appends the words of all-ASCII `bytes` to `document` (a space before each but the
    /// first), without a `String` per word: what every send of plain text pays. False, with
    /// `document` unchanged, when `bytes` holds anything else.
    private static func appendASCIIWords(of bytes: UnsafeBufferPointer<UInt8>, to document: inout [UInt8]) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        let leadingSpace = !document.isEmpty
        // Written into one buffer and appended once: appending byte by byte cost about 60
        // instructions a byte. Every word but the first follows a byte that is not part of one,
        // so the words and a space before each fit in the text's length plus one.
        let words = [UInt8](unsafeUninitializedCapacity: bytes.count + 1) { buffer, count in
            var index = 0
            count = 0
            while index < bytes.count {
                while index < bytes.count, !isASCIIWordByte(bytes[index]) { index += 1 }
                let start = index
                while index < bytes.count, isASCIIWordByte(bytes[index]) { index += 1 }
                guard index > start else { break }
                if count > 0 || leadingSpace {
                    buffer[count] = UInt8(ascii: " ")
                    count += 1
                }
                for offset in start..<min(index, start + maximumWordBytes) {
                    let byte = bytes[offset]
                    buffer[count] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                    count += 1
                }
            }
        }
        document.append(contentsOf: words)
        return true
    }

    /// The searchable text of a message part: its text, or a file's name.
    public static func searchableText(of part: MessagePart) -> String? {
        switch part {
        case .text(let value): value
        case .file(let file): file.name
        case .attachment, .url: nil
        }
    }

    // MARK: Cutting

    private static func forEachToken(in text: String, ranges: Bool, _ body: (String, Range<Int>) -> Void) {
        if !ranges, let done = forEachASCIIToken(in: text, body) { return done }
        var word = String.UnicodeScalarView()
        var wordBytes = 0
        var start = 0
        var offset = 0
        func finish() {
            if !word.isEmpty { body(String(word), start..<offset) }
            word = String.UnicodeScalarView()
            wordBytes = 0
        }
        for scalar in text.unicodeScalars {
            let width = scalar.utf16.count
            switch kind(of: scalar) {
            case .separator:
                finish()
            case .ignored:
                break
            case .wordCharacter:
                if word.isEmpty { start = offset }
                for folded in fold(scalar) where wordBytes + folded.utf8.count <= maximumWordBytes {
                    word.append(folded)
                    wordBytes += folded.utf8.count
                }
            case .wordOfItsOwn:
                finish()
                start = offset
                offset += width
                if isEmoji(scalar) {
                    body("u" + String(scalar.value, radix: 16), start..<offset)
                } else {
                    body(String(scalar), start..<offset)
                }
                continue
            }
            offset += width
        }
        finish()
    }

    /// The all-ASCII case (most messages) by bytes, without building scalars; nil when `text`
    /// holds anything else.
    private static func forEachASCIIToken(in text: String, _ body: (String, Range<Int>) -> Void) -> Void? {
        var text = text
        return text.withUTF8 { bytes -> Void? in
            for byte in bytes where byte >= 0x80 { return nil }
            var index = 0
            while index < bytes.count {
                while index < bytes.count, !isASCIIWordByte(bytes[index]) { index += 1 }
                let start = index
                while index < bytes.count, isASCIIWordByte(bytes[index]) { index += 1 }
                guard index > start else { break }
                let end = min(index, start + maximumWordBytes)
                let word = String(unsafeUninitializedCapacity: end - start) { buffer in
                    for offset in start..<end {
                        let byte = bytes[offset]
                        buffer[offset - start] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                    }
                    return end - start
                }
                body(word, start..<index)
            }
            return ()
        }
    }

    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    // MARK: Classes of characters

    enum Kind { case separator, ignored, wordCharacter, wordOfItsOwn }

    static func kind(of scalar: Unicode.Scalar) -> Kind {
        let value = scalar.value
        if value < 0x80 { return isASCIIWordByte(UInt8(value)) ? .wordCharacter : .separator }
        if isIgnored(scalar) { return .ignored }
        if isIdeographic(value) || isEmoji(scalar) { return .wordOfItsOwn }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return .wordCharacter }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return .wordCharacter
        default: return .separator
        }
    }

    /// Joiners, variation selectors, skin-tone modifiers and the combining diacritics that
    /// ``fold(_:)`` removes: parts of a character, not of the word's identity.
    static func isIgnored(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0x0300...0x036F: true
        default: false
        }
    }

    /// Han, Hiragana, Katakana and Hangul, the scripts without spaces between words. The
    /// ranges are ``ideographicRanges``.
    static func isIdeographic(_ value: UInt32) -> Bool {
        ideographicRanges.contains { $0.contains(value) }
    }

    /// The code point ranges whose characters are each a word (PostgreSQL's migration uses them too).
    public static let ideographicRanges: [ClosedRange<UInt32>] = [
        0x3040...0x30FF,  // Hiragana, Katakana
        0x3400...0x4DBF,  // CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xAC00...0xD7AF,  // Hangul syllables
        0xF900...0xFAFF,  // CJK Compatibility Ideographs
        0x20000...0x2FA1F  // CJK Extensions B–F, compatibility supplement
    ]

    /// Emoji that stand as pictures: those with the emoji presentation by default, and the
    /// symbols of the emoji blocks (PostgreSQL's migration uses ``emojiRanges``).
    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        emojiRanges.contains { $0.contains(scalar.value) }
    }

    /// The code point ranges whose characters are each a word written as `u` and their hex code point.
    public static let emojiRanges: [ClosedRange<UInt32>] = [
        0x2600...0x27BF,  // Miscellaneous Symbols, Dingbats
        0x2B00...0x2BFF,  // arrows and stars (⭐)
        0x1F000...0x1F3FA,  // tiles, cards, enclosed characters, symbols and pictographs before the skin tones
        0x1F400...0x1FAFF  // pictographs, emoticons, transport, supplemental symbols
    ]

    // MARK: Folding

    /// A word character lowercased and, for Latin letters, without its diacritic.
    static func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        let lowered = scalar.properties.lowercaseMapping.unicodeScalars
        return lowered.compactMap { lower in
            if let base = latinFoldTable[lower.value] { return base }
            return isIgnored(lower) ? nil : lower
        }
    }

    /// Lowercase Latin letters with diacritics and the letter without them, as two strings of
    /// the same length (PostgreSQL's migration passes them to `translate`).
    public static let latinFolds = (
        from: "àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżž",
        to: "aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzz"
    )

    private static let latinFoldTable: [UInt32: Unicode.Scalar] = {
        var table: [UInt32: Unicode.Scalar] = [:]
        for (from, to) in zip(latinFolds.from.unicodeScalars, latinFolds.to.unicodeScalars) { table[from.value] = to }
        return table
    }()
}
