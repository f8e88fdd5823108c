import ParleyWire

/// Finds where each object member and array element of a valid JSON text starts, by the same
/// paths the config checks report (`$`, `$.apps`, `$.apps[0]`, `$.apps[0].key`), so a
/// problem found in the parsed value can be shown at its line and column.
///
/// Runs only over text ``JSONParser`` accepted, so it does not re-check the grammar; on
/// anything unexpected it stops and returns what it found so far.
struct JSONMemberLocator {
    private let bytes: [UInt8]
    private var position = 0
    private var offsets: [String: Int] = [:]

    /// The byte offset at which each path's key (members) or value (elements) begins.
    static func offsets(in bytes: [UInt8]) -> [String: Int] {
        var locator = JSONMemberLocator(bytes: bytes)
        locator.skipWhitespace()
        locator.offsets["$"] = locator.position
        _ = locator.value(path: "$", depth: 0)
        return locator.offsets
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    /// Skips one value starting at `position`; false if the text is not as expected.
    private mutating func value(path: String, depth: Int) -> Bool {
        guard depth < 128, let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(path: path, depth: depth)
        case UInt8(ascii: "["): return array(path: path, depth: depth)
        case UInt8(ascii: "\""): return string() != nil
        default:
            while let next = current, !Self.ends(next) { position += 1 }
            return true
        }
    }

    private static func ends(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func object(path: String, depth: Int) -> Bool {
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return true }
        while true {
            skipWhitespace()
            let start = position
            guard let key = string() else { return false }
            let memberPath = "\(path).\(key)"
            offsets[memberPath] = offsets[memberPath] ?? start
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return false }
            position += 1
            skipWhitespace()
            guard value(path: memberPath, depth: depth + 1) else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: position += 1
            case UInt8(ascii: "}")?: position += 1; return true
            default: return false
            }
        }
    }

    private mutating func array(path: String, depth: Int) -> Bool {
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return true }
        var index = 0
        while true {
            skipWhitespace()
            let elementPath = "\(path)[\(index)]"
            offsets[elementPath] = position
            guard value(path: elementPath, depth: depth + 1) else { return false }
            index += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?: position += 1
            case UInt8(ascii: "]")?: position += 1; return true
            default: return false
            }
        }
    }

    /// Reads a string literal, decoding only what key names need (escapes are kept as the
    /// parser would decode them for the common cases).
    private mutating func string() -> String? {
        guard current == UInt8(ascii: "\"") else { return nil }
        position += 1
        var raw: [UInt8] = []
        while let byte = current {
            position += 1
            if byte == UInt8(ascii: "\"") { return (try? JSONParser.parse([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]))?.stringValue }
            raw.append(byte)
            if byte == UInt8(ascii: "\\"), let escaped = current {
                raw.append(escaped)
                position += 1
            }
        }
        return nil
    }
}
