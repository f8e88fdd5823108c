/// Makes JPEG thumbnails of PNG, JPEG, GIF and WebP images: the longest side at most
/// ``longestSide``, the aspect ratio kept, never enlarged; transparency composed onto white; a
/// JPEG's EXIF orientation applied, so the thumbnail stands the way the photo is shown; an
/// animated GIF or WebP shown by its first frame.
public struct Thumbnailer: Sendable {
    /// The thumbnail's longest side at most, in pixels.
    public var longestSide: Int
    /// Images whose header declares more pixels than this are refused before decoding.
    public var maxPixels: Int
    /// The JPEG quality of thumbnails (1…100).
    public var quality: Int

    /// Creates a thumbnailer.
    public init(longestSide: Int = 320, maxPixels: Int = 40_000_000, quality: Int = 80) {
        precondition(longestSide >= 1 && maxPixels >= 1 && (1...100).contains(quality), "thumbnail settings out of range")
        self.longestSide = longestSide
        self.maxPixels = maxPixels
        self.quality = quality
    }

    /// The formats this thumbnailer decodes, by their leading bytes.
    public enum Format: Sendable, Equatable {
        case png, jpeg, gif, webp

        /// The format of `bytes`, or nil.
        public static func sniff(_ bytes: some Collection<UInt8>) -> Format? {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
            if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
            if bytes.starts(with: Array("RIFF".utf8)), bytes.dropFirst(8).starts(with: Array("WEBP".utf8)) { return .webp }
            return nil
        }
    }

    /// Decodes `bytes` to pixels, at least large enough for a thumbnail (a JPEG may come out
    /// scaled down by the decoder); the orientation is not yet applied.
    public func decode(_ bytes: [UInt8]) throws(ImageError) -> PixelBuffer {
        guard let format = Format.sniff(bytes) else { throw ImageError(.unsupportedFormat, "not a PNG, JPEG, GIF or WebP image") }
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImageError) in
                switch format {
                case .png: return try PNGImageReader().decode(raw, maxPixels: maxPixels)
                case .jpeg: return try JPEGCodec.decode(raw, maxPixels: maxPixels, longestSide: longestSide)
                case .gif: return try GIFReader(raw).decodeFirstFrame(maxPixels: maxPixels)
                case .webp: return try WebPCodec.decode(raw, maxPixels: maxPixels)
                }
            }
        }
        return try result.get()
    }

    /// The JPEG thumbnail of a PNG, JPEG, GIF or WebP image.
    public func thumbnail(of bytes: [UInt8]) throws(ImageError) -> Thumbnail {
        let decoded = try decode(bytes)
        let size = PixelBuffer.fittedSize(width: decoded.width, height: decoded.height, longestSide: longestSide)
        var small = decoded.downscaled(width: size.width, height: size.height)
        if Format.sniff(bytes) == .jpeg { small = small.oriented(ExifOrientation.read(bytes)) }
        return Thumbnail(bytes: try JPEGCodec.encode(small, quality: quality), width: small.width, height: small.height)
    }
}
