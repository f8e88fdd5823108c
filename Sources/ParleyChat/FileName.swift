/// An attachment's display name: what an uploader may call a file, and how a download names it.
///
/// The name is metadata only (files are stored under generated ids), but it reaches browsers
/// in `Content-Disposition` and clients' screens, so it is reduced to one path component
/// without control or text-direction characters, and at most 255 UTF-8 bytes.
struct FileName: Sendable, Hashable {
    /// The cleaned name.
    let value: String

    /// The longest name accepted, in UTF-8 bytes.
    static let maxBytes = 255

    /// Cleans `raw`: keeps what follows the last `/` or `\`, replaces control and bidi-override
    /// characters with `_`, trims spaces, and cuts it to `maxBytes` at a character boundary.
    /// Nil when nothing is left.
    init?(_ raw: String) {
        let component = raw.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        for scalar in component.unicodeScalars {
            scalars.append(Self.isHidden(scalar) ? "_" : scalar)
        }
        let cleaned = Substring(String(scalars)).trimmingSpaces()
        guard !cleaned.isEmpty, cleaned != ".", cleaned != ".." else { return nil }
        value = Self.truncated(cleaned)
    }

    /// The longest prefix of whole characters within `maxBytes`.
    private static func truncated(_ name: String) -> String {
        guard name.utf8.count > maxBytes else { return name }
        var kept = ""
        for character in name {
            guard kept.utf8.count + character.utf8.count <= maxBytes else { break }
            kept.append(character)
        }
        return kept
    }

    /// Control characters, and the format characters that reorder or hide text
    /// (`report\u{202E}fdp.exe` shows as `reportexe.pdf`).
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// The `Content-Disposition` value for a download: `inline` or `attachment`, with the name
    /// as an ASCII `filename` (other characters as `_`) and, when that loses anything, as an
    /// RFC 5987 `filename*` in UTF-8 (RFC 6266). Without a name, `fallback` (the id) is used.
    static func contentDisposition(inline: Bool, name: String?, fallback: String) -> String {
        let kind = inline ? "inline" : "attachment"
        guard let name else { return inline ? kind : "\(kind); filename=\"\(asciiFallback(fallback))\"" }
        let ascii = asciiFallback(name)
        var value = "\(kind); filename=\"\(ascii)\""
        if ascii != name { value += "; filename*=UTF-8''" + extValue(name) }
        return value
    }

    /// Printable ASCII except `"`, `\` and `%` (which some agents decode); anything else `_`.
    static func asciiFallback(_ name: String) -> String {
        String(
            name.unicodeScalars.map { scalar -> Character in
                (0x20...0x7E).contains(scalar.value) && !"\"\\%".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
            })
    }

    /// UTF-8 bytes, percent-encoded except RFC 5987's `attr-char`.
    static func extValue(_ name: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let attrChar = Set("!#$&+-.^_`|~".utf8)
        var out: [UInt8] = []
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.append(byte)
            case _ where attrChar.contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
