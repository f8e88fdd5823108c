/// How message text and search queries are cut into the words the full-text indexes hold.
///
/// Both engines index the same words, made here rather than by the engines' own parsers:
/// PostgreSQL's parser drops emoji and keeps a run of Chinese or Japanese as one word (what it
/// counts as a letter even depends on the database's locale), SQLite's `unicode61` drops emoji
/// too. The rules work on code-point ranges only, so PostgreSQL's copy of them
/// (`SearchTokenizer.postgresFunctions`, generated from the same tables) gives the same words
/// whatever the locale:
///
/// 1. Lower case (full Unicode mapping; final sigma reads as sigma), NFC.
/// 2. Combining marks, joiners, variation selectors and skin-tone modifiers are dropped;
///    common Latin letters with diacritics fold to their base letter (`é` → `e`).
/// 3. Ideographs, kana, Thai-like scripts written without spaces, emoji and symbols are each
///    a word of their own (a query for `東京` is the phrase `東 京`); punctuation, spaces and
///    ASCII symbols separate words; everything else (ASCII letters and digits, other scripts'
///    letters) forms words.
enum SearchTokenizer {
    /// What a code point does to the words around it.
    enum Role: Equatable {
        case word, single, separator, dropped
    }

    /// A word and where its characters sit in the original text, in UTF-16 code units.
    struct Token: Equatable {
        var text: String
        var utf16: Range<Int>
    }

    /// The words of `text`, in order.
    static func words(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        return tokens(text).map(\.text)
    }

    /// The words of `text` with their places, for highlighting.
    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var word = String.UnicodeScalarView()
        var wordStart = 0, wordEnd = 0
        var offset = 0
        func flush() {
            guard !word.isEmpty else { return }
            if String(word).utf8.count < maximumWordBytes {
                tokens.append(Token(text: String(word), utf16: wordStart..<wordEnd))
            }
            word = String.UnicodeScalarView()
        }
        for character in text {
            let width = character.utf16.count
            defer { offset += width }
            for scalar in normalized(character) {
                switch role(of: scalar) {
                case .dropped: continue
                case .separator: flush()
                case .single:
                    flush()
                    tokens.append(Token(text: String(Character(scalar)), utf16: offset..<offset + width))
                case .word:
                    if word.isEmpty { wordStart = offset }
                    word.append(scalar)
                    wordEnd = offset + width
                }
            }
        }
        flush()
        return tokens
    }

    /// PostgreSQL refuses lexemes of 2 KiB and more; longer words are not indexed (nor searched).
    static let maximumWordBytes = 2_047

    /// The fast path for ASCII text: letters and digits form words, everything else separates.
    private static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
            default:
                if !word.isEmpty {
                    if word.count < maximumWordBytes { words.append(String(decoding: word, as: UTF8.self)) }
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        if !word.isEmpty, word.count < maximumWordBytes { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// One character lowered, composed and folded (steps 1 and 2, without the dropping).
    static func normalized(_ character: Character) -> [Unicode.Scalar] {
        let lowered = String(character).lowercased()
        let composed = String(decoding: lowered._nfcCodeUnits, as: UTF8.self)
        return composed.unicodeScalars.map { folds[$0] ?? $0 }
    }

    /// Step 3's classes, by code point.
    static func role(of scalar: Unicode.Scalar) -> Role {
        let value = scalar.value
        if value < 0x80 {
            switch value {
            case 0x30...0x39, 0x61...0x7A: return .word
            default: return .separator
            }
        }
        if droppedRanges.contains(where: { $0.contains(value) }) { return .dropped }
        if separatorRanges.contains(where: { $0.contains(value) }) { return .separator }
        if singleRanges.contains(where: { $0.contains(value) }) { return .single }
        return .word
    }

    /// Marks, joiners, variation selectors, keycap and tag characters, skin-tone modifiers.
    static let droppedRanges: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x200B...0x200D, 0x2060...0x2064, 0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFEFF...0xFEFF,
        0x1F3FB...0x1F3FF, 0xE0000...0xE007F
    ]

    /// Latin-1 punctuation and symbols, general and CJK punctuation, full-width ASCII punctuation.
    static let separatorRanges: [ClosedRange<UInt32>] = [
        0x0080...0x00BF, 0x00D7...0x00D7, 0x00F7...0x00F7, 0x2000...0x206F, 0x2E00...0x2E7F, 0x3000...0x303F,
        0xFE10...0xFE1F, 0xFE30...0xFE4F, 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65
    ]

    /// Scripts written without spaces (Thai, Lao, Myanmar, Khmer, CJK, kana), symbols and emoji.
    static let singleRanges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x2190...0x2BFF, 0x2E80...0x2FFF, 0x3040...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x1F000...0x1FAFF, 0x20000...0x3FFFF
    ]

    /// Lower-case Latin letters with diacritics and their base letters (one for one, so
    /// PostgreSQL's `translate` applies the same table).
    static let foldPairs: [(String, Character)] = [
        ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
        ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņň", "n"), ("òóôõöøōŏő", "o"),
        ("ŕŗř", "r"), ("śŝşšș", "s"), ("ţťŧț", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"), ("źżž", "z"),
        ("ς", "σ")
    ]

    static let folds: [Unicode.Scalar: Unicode.Scalar] = {
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (letters, base) in foldPairs {
            for letter in letters.unicodeScalars { table[letter] = base.unicodeScalars.first }
        }
        return table
    }()
}
