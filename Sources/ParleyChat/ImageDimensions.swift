/// The pixel size of an image, read from its header without decoding it.
///
/// Understands PNG (IHDR), GIF (logical screen), JPEG (the first SOFn frame header) and
/// WebP (`VP8 `, `VP8L` and `VP8X` chunks). Anything else, or a truncated header, gives nil.
public struct ImageDimensions: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a value.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The dimensions of an image in one of the understood formats, whatever its declared type.
    public static func sniff(_ bytes: [UInt8]) -> ImageDimensions? {
        bytes.withUnsafeBufferPointer { buffer in
            let reader = ByteReader(buffer)
            return png(reader) ?? gif(reader) ?? jpeg(reader) ?? webp(reader)
        }
    }

    /// The dimensions in the header of an image already sniffed as `type`; nil when that header
    /// does not decode (or `type` is not an image).
    public static func read(_ bytes: [UInt8], as type: SniffedMediaType) -> ImageDimensions? {
        bytes.withUnsafeBufferPointer { buffer in
            let reader = ByteReader(buffer)
            switch type {
            case .png: return png(reader)
            case .gif: return gif(reader)
            case .jpeg: return jpeg(reader)
            case .webp: return webp(reader)
            default: return nil  // not an image
            }
        }
    }

    // MARK: PNG

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The IHDR chunk must come first: width and height are its first two big-endian words.
    static func png(_ reader: ByteReader) -> ImageDimensions? {
        guard reader.matches(pngSignature, at: 0), reader.matches(Array("IHDR".utf8), at: 12),
            let width = reader.uint32BE(at: 16), let height = reader.uint32BE(at: 20),
            width > 0, height > 0, width <= Int32.max, height <= Int32.max
        else { return nil }
        return ImageDimensions(width: Int(width), height: Int(height))
    }

    // MARK: GIF

    static func gif(_ reader: ByteReader) -> ImageDimensions? {
        guard reader.matches(Array("GIF87a".utf8), at: 0) || reader.matches(Array("GIF89a".utf8), at: 0),
            let width = reader.uint16LE(at: 6), let height = reader.uint16LE(at: 8)
        else { return nil }
        return ImageDimensions(width: Int(width), height: Int(height))
    }

    // MARK: JPEG

    /// Walks the marker segments up to the first start-of-frame; lengths include their own two bytes.
    static func jpeg(_ reader: ByteReader) -> ImageDimensions? {
        guard reader.matches([0xFF, 0xD8], at: 0) else { return nil }
        var offset = 2
        while let prefix = reader.byte(at: offset) {
            guard prefix == 0xFF else { return nil }
            var marker = reader.byte(at: offset + 1)
            // Any number of 0xFF fill bytes may precede a marker.
            while marker == 0xFF {
                offset += 1
                marker = reader.byte(at: offset + 1)
            }
            guard let marker else { return nil }
            offset += 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0xD9, marker != 0xDA, let length = reader.uint16BE(at: offset), length >= 2 else { return nil }
            if isStartOfFrame(marker) {
                guard let height = reader.uint16BE(at: offset + 3), let width = reader.uint16BE(at: offset + 5),
                    width > 0
                else { return nil }
                return ImageDimensions(width: Int(width), height: Int(height))
            }
            offset += Int(length)
        }
        return nil
    }

    /// SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    // MARK: WebP

    static func webp(_ reader: ByteReader) -> ImageDimensions? {
        guard reader.matches(Array("RIFF".utf8), at: 0), reader.matches(Array("WEBP".utf8), at: 8) else { return nil }
        if reader.matches(Array("VP8 ".utf8), at: 12) { return webpLossy(reader) }
        if reader.matches(Array("VP8L".utf8), at: 12) { return webpLossless(reader) }
        if reader.matches(Array("VP8X".utf8), at: 12) { return webpExtended(reader) }
        return nil
    }

    /// A key frame: 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height.
    private static func webpLossy(_ reader: ByteReader) -> ImageDimensions? {
        guard reader.matches([0x9D, 0x01, 0x2A], at: 23),
            let width = reader.uint16LE(at: 26), let height = reader.uint16LE(at: 28)
        else { return nil }
        return ImageDimensions(width: Int(width & 0x3FFF), height: Int(height & 0x3FFF))
    }

    /// Signature 0x2F, then 14 bits of width − 1 and 14 bits of height − 1, little-endian.
    private static func webpLossless(_ reader: ByteReader) -> ImageDimensions? {
        guard reader.byte(at: 20) == 0x2F, let bits = reader.uint32LE(at: 21) else { return nil }
        return ImageDimensions(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
    }

    /// The canvas size: 24-bit width − 1 and height − 1 after 4 bytes of flags.
    private static func webpExtended(_ reader: ByteReader) -> ImageDimensions? {
        guard let width = reader.uint24LE(at: 24), let height = reader.uint24LE(at: 27) else { return nil }
        return ImageDimensions(width: Int(width) + 1, height: Int(height) + 1)
    }
}
