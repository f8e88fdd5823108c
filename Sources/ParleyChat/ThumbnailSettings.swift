import ParleyImaging

/// The thumbnail settings in force: whether uploads get one, the longest side, the pixel limit
/// and the JPEG quality. Start from ``ChatLimits``; a reload of the config file (SIGHUP)
/// replaces them for later uploads (``ChatService/reloadThumbnails(_:)``).
public struct ThumbnailSettings: Sendable, Hashable {
    /// Whether PNG, JPEG, GIF and WebP uploads get a thumbnail.
    public var enabled: Bool
    /// The thumbnail's longest side, in pixels.
    public var longestSide: Int
    /// Images of more pixels than this get no thumbnail (their header is read, nothing decoded).
    public var maxPixels: Int
    /// The JPEG quality thumbnails are written with (1…100).
    public var quality: Int

    /// The settings of `limits`.
    public init(_ limits: ChatLimits) {
        enabled = limits.thumbnails
        longestSide = limits.thumbnailSide
        maxPixels = limits.thumbnailMaxPixels
        quality = limits.thumbnailQuality
    }

    /// Whether the thumbnailer accepts them (it stops the process on settings out of range).
    public var isValid: Bool { longestSide >= 1 && maxPixels >= 1 && (1...100).contains(quality) }

    /// The thumbnailer making thumbnails with these settings.
    var thumbnailer: Thumbnailer { Thumbnailer(longestSide: longestSide, maxPixels: maxPixels, quality: quality) }
}
