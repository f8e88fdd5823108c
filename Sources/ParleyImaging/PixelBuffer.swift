/// Decoded 8-bit sRGB pixels, row after row without padding: RGB (3 channels) or
/// non-premultiplied RGBA (4 channels).
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// `width × height × channels` bytes.
    public var pixels: [UInt8]

    /// Wraps pixels already laid out as described; the count must match.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 3 || channels == 4, "PixelBuffer holds RGB or RGBA")
        precondition(pixels.count == width * height * channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The RGB value at (`x`, `y`) (alpha left out).
    public func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let at = (y * width + x) * channels
        return (pixels[at], pixels[at + 1], pixels[at + 2])
    }

    /// The size whose longest side is at most `longestSide`, keeping the aspect ratio, never larger
    /// than the image itself and never below one pixel a side.
    public static func fittedSize(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > longestSide else { return (width, height) }
        // Rounded to nearest, in integers so that the result does not depend on float rounding.
        let scaledWidth = (width * longestSide * 2 + longest) / (longest * 2)
        let scaledHeight = (height * longestSide * 2 + longest) / (longest * 2)
        return (max(1, scaledWidth), max(1, scaledHeight))
    }
}
