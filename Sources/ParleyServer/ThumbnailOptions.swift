import ParleyChat
import ParleyWire

/// Attachment thumbnails as the config file's `"thumbnails"` object sets them: whether they are
/// made, their longest side, the decompression-bomb limit and the JPEG quality. Absent members
/// keep the chat service's defaults (``ChatLimits``).
public struct ThumbnailOptions: Sendable, Equatable {
    /// Whether PNG, JPEG, GIF and WebP uploads get a thumbnail.
    public var enabled: Bool
    /// The thumbnail's longest side, in pixels.
    public var maxSide: Int
    /// Images whose header declares more pixels than this get no thumbnail (nothing is decoded).
    public var maxSourcePixels: Int
    /// The JPEG quality thumbnails are written with.
    public var jpegQuality: Int

    /// What each setting may be; the config schema (``ConfigSchema``) states the same ranges.
    public static let maxSideRange = 16...4096
    public static let maxSourcePixelsRange = 1...100_000_000
    public static let jpegQualityRange = 1...100

    /// The chat service's defaults.
    public init() {
        let defaults = ChatLimits()
        enabled = defaults.thumbnails
        maxSide = defaults.thumbnailSide
        maxSourcePixels = defaults.thumbnailMaxPixels
        jpegQuality = defaults.thumbnailQuality
    }

    /// The `"thumbnails"` object of a config file (`enabled`, `max_side`, `max_source_pixels`,
    /// `jpeg_quality`); absent or null: the defaults.
    public init(configFile root: JSONValue) throws(ServerStartError) {
        self.init()
        guard let section = root["thumbnails"], section != .null else { return }
        guard let object = section.objectValue else { throw Self.invalid("$.thumbnails", "must be an object") }
        for key in object.keys.sorted() where !Self.fileKeys.contains(key) {
            throw Self.invalid("$.thumbnails.\(key)", "unknown setting (known: \(Self.fileKeys.joined(separator: ", ")))")
        }
        if let value = section["enabled"], value != .null {
            guard let flag = value.boolValue else { throw Self.invalid("$.thumbnails.enabled", "must be true or false") }
            enabled = flag
        }
        maxSide = try Self.int(section, "max_side", Self.maxSideRange) ?? maxSide
        maxSourcePixels = try Self.int(section, "max_source_pixels", Self.maxSourcePixelsRange) ?? maxSourcePixels
        jpegQuality = try Self.int(section, "jpeg_quality", Self.jpegQualityRange) ?? jpegQuality
    }

    /// The members the `"thumbnails"` object may have.
    static let fileKeys = ["enabled", "max_side", "max_source_pixels", "jpeg_quality"]

    /// The chat service's thumbnail settings these options make (what a reload hands it).
    public var settings: ThumbnailSettings {
        var limits = ChatLimits()
        apply(to: &limits)
        return ThumbnailSettings(limits)
    }

    /// Sets the chat service's thumbnail limits from these options.
    func apply(to limits: inout ChatLimits) {
        limits.thumbnails = enabled
        limits.thumbnailSide = maxSide
        limits.thumbnailMaxPixels = maxSourcePixels
        limits.thumbnailQuality = jpegQuality
    }

    private static func int(_ section: JSONValue, _ key: String, _ range: ClosedRange<Int>) throws(ServerStartError) -> Int? {
        guard let value = section[key], value != .null else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw invalid("$.thumbnails.\(key)", "must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    private static func invalid(_ path: String, _ message: String) -> ServerStartError {
        ServerStartError(code: "config_invalid", message: "\(path) \(message)")
    }
}
