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
    /// `PK 03 04` or `PK 05 06` (also every Office, OpenDocument, EPUB and JAR file).
    case zip = "application/zip"
    /// `1F 8B 08`.
    case gzip = "application/gzip"
    /// `ID3`, or an MPEG audio frame sync (`FF Ex`/`FF Fx` with a layer).
    case mp3 = "audio/mpeg"
    /// `OggS` (Vorbis, Opus, Theora).
    case ogg = "audio/ogg"
    /// `RIFF`, four length bytes, `WAVE`.
    case wav = "audio/wav"
    /// `fLaC`.
    case flac = "audio/flac"
    /// `ftyp` at offset 4: the ISO base media family (MP4, M4A, MOV, 3GP).
    case mp4 = "video/mp4"
    /// `1A 45 DF A3`: EBML, so WebM or Matroska.
    case webm = "video/webm"
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
        return sniffContainer(bytes) ?? (isPlainText(bytes) ? .text : .binary)
    }

    /// Whether the type is one of the images clients show inline.
    public var isImage: Bool {
        switch self {
        case .png, .jpeg, .gif, .webp: return true
        case .pdf, .text, .binary, .zip, .gzip, .mp3, .ogg, .wav, .flac, .mp4, .webm: return false
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
        case .zip, .gzip, .mp3, .ogg, .wav, .flac, .mp4, .webm:
            return familyTopLevels.contains(where: { declared.hasPrefix($0 + "/") }) && !claimsPDF
        }
    }

    /// The type an upload declared as `declared` is stored and served with, once `accepts` said
    /// yes: text stays plain text; a container format or opaque bytes keep a more precise
    /// declared type (`application/vnd.openxmlformats-officedocument.wordprocessingml.document`
    /// for a zip, `audio/mp4` for an ISO media file) unless that type is one a browser would
    /// run or render as a page (HTML, XML, SVG, scripts, style sheets), which becomes
    /// `application/octet-stream`. Downloads of non-images are attachments in any case.
    public func storedType(declared: String) -> String {
        let declared = Self.canonical(declared)
        switch self {
        case .png, .jpeg, .gif, .webp, .pdf, .text: return contentType
        case .binary, .zip, .gzip, .mp3, .ogg, .wav, .flac, .mp4, .webm:
            if declared == Self.binary.rawValue || Self.isActive(declared) || !Self.isPlainToken(declared) { return contentType }
            return declared
        }
    }

    /// The top-level types a container format may be declared under.
    private var familyTopLevels: [String] {
        switch self {
        case .zip, .gzip: return ["application"]
        case .mp3, .wav, .flac: return ["audio"]
        case .ogg, .mp4, .webm: return ["audio", "video", "application"]
        case .png, .jpeg, .gif, .webp, .pdf, .text, .binary: return []
        }
    }

    /// Types a browser renders as a document or runs: HTML and XHTML, XML (and `+xml`) with
    /// SVG and XSLT, scripts, style sheets, and multipart or message wrappers. Office's
    /// `vnd.openxmlformats-…` types only name XML in their vendor name and stay as they are.
    static func isActive(_ essence: String) -> Bool {
        let subtype = essence.split(separator: "/", maxSplits: 1).last.map(String.init) ?? essence
        return ["html", "svg", "script", "css", "xsl"].contains(where: { essence.contains($0) })
            || subtype == "xml" || subtype.hasSuffix("+xml")
            || essence.hasPrefix("multipart/") || essence.hasPrefix("message/")
    }

    /// `type/subtype` of lowercase letters, digits and `.+-_`.
    private static func isPlainToken(_ essence: String) -> Bool {
        let halves = essence.split(separator: "/", omittingEmptySubsequences: false)
        return halves.count == 2 && essence.utf8.count <= 127
            && halves.allSatisfy { half in
                !half.isEmpty
                    && half.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || ".+-_".utf8.contains($0) }
            }
    }

    /// The container formats, by their leading bytes.
    private static func sniffContainer(_ bytes: [UInt8]) -> SniffedMediaType? {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if bytes.starts(with: [0x1F, 0x8B, 0x08]) { return .gzip }
        // Each signature below also has a byte no plain text has (a control byte, NUL or
        // invalid UTF-8), so a text file that happens to start with "ID3" stays text.
        if bytes.starts(with: Array("ID3".utf8)), bytes.count >= 4, (2...4).contains(bytes[3]) { return .mp3 }
        // Frame sync, an MPEG version other than reserved (01) and a layer other than reserved (00).
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x18 != 0x08, bytes[1] & 0x06 != 0 { return .mp3 }
        if bytes.starts(with: Array("OggS".utf8)), bytes.count >= 5, bytes[4] == 0 { return .ogg }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual("WAVE".utf8) { return .wav }
        if bytes.starts(with: Array("fLaC".utf8)), bytes.count >= 5, bytes[4] & 0x7F == 0 { return .flac }
        if bytes.count >= 12, bytes[0] == 0, bytes[4..<8].elementsEqual("ftyp".utf8) { return .mp4 }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        return nil
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
