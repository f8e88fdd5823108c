/// What an upload's bytes are, decided by their leading bytes ("magic numbers"), never by the
/// type the uploader declared: the type an attachment is stored and served with.
public enum SniffedMediaType: String, Sendable, Hashable, CaseIterable {
    /// `89 50 4E 47 0D 0A 1A 0A`.
    case png = "image/png"
    /// `FF D8 FF`.
    case jpeg = "image/jpeg"
    /// `GIF87a` or `GIF89a`.
    case gif = "image/gif"
    /// `RIFF`, four length bytes, `WEBP`.
    case webp = "image/webp"
    /// `%PDF-`.
    case pdf = "application/pdf"
    /// Valid UTF-8 without NUL or control characters other than tab, line feed, form feed and carriage return.
    case text = "text/plain"
    /// Anything else.
    case binary = "application/octet-stream"

    /// The type of `bytes`.
    public static func sniff(_ bytes: [UInt8]) -> SniffedMediaType {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        if bytes.starts(with: Array("%PDF-".utf8)) { return .pdf }
        return isPlainText(bytes) ? .text : .binary
    }

    /// Whether the type is one of the images clients show inline.
    public var isImage: Bool {
        switch self {
        case .png, .jpeg, .gif, .webp: return true
        case .pdf, .text, .binary: return false
        }
    }

    /// The `Content-Type` the attachment is stored and served with.
    public var contentType: String { self == .text ? "text/plain; charset=utf-8" : rawValue }

    /// Whether an upload declared as `declared` (a media type essence, any case) may be these
    /// bytes. `application/octet-stream` claims nothing; text may be declared as any non-image,
    /// non-PDF type (`text/html`, `application/json`: it is stored as plain text); other bytes
    /// as any type that is not an image, text or PDF (`application/zip`: stored as
    /// `application/octet-stream`). Images and PDFs must be declared as exactly what they are.
    public func accepts(declared: String) -> Bool {
        let declared = Self.canonical(declared)
        if declared == rawValue || declared == Self.binary.rawValue { return true }
        let claimsImage = declared.hasPrefix("image/"), claimsPDF = declared == Self.pdf.rawValue
        switch self {
        case .png, .jpeg, .gif, .webp, .pdf: return false
        case .text: return !claimsImage && !claimsPDF
        case .binary: return !claimsImage && !claimsPDF && !declared.hasPrefix("text/")
        }
    }

    /// Lowercased, and the common non-standard JPEG names mapped to `image/jpeg`.
    private static func canonical(_ essence: String) -> String {
        let lower = essence.lowercased()
        return lower == "image/jpg" || lower == "image/pjpeg" ? jpeg.rawValue : lower
    }

    private static func isPlainText(_ bytes: [UInt8]) -> Bool {
        let allowedControls: Set<UInt8> = [0x09, 0x0A, 0x0C, 0x0D]
        guard !bytes.contains(where: { $0 < 0x20 && !allowedControls.contains($0) }) else { return false }
        return String(validating: bytes, as: UTF8.self) != nil
    }
}
