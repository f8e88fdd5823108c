import Testing

@testable import ParleyImaging

/// GIF over giflib and WebP over libwebp: still, transparent and animated files (first frame),
/// and the ways untrusted bytes go wrong, each an ``ImageError`` rather than a crash.
@Suite struct GIFWebPThumbnailTests {
    let thumbnailer = Thumbnailer()

    @Test func formatsAreSniffedByTheirLeadingBytes() {
        #expect(Thumbnailer.Format.sniff(ImagingTestImages.gifHalves) == .gif)
        #expect(Thumbnailer.Format.sniff(ImagingTestImages.gifAnimated) == .gif)
        #expect(Thumbnailer.Format.sniff(ImagingTestImages.webpLossy) == .webp)
        #expect(Thumbnailer.Format.sniff(ImagingTestImages.webpAnimated) == .webp)
        // RIFF of another kind (a WAV file) is not WebP.
        #expect(Thumbnailer.Format.sniff(Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8)) == nil)
    }

    @Test(arguments: [
        ("gif", ImagingTestImages.gifHalves), ("lossy WebP", ImagingTestImages.webpLossy),
        ("lossless WebP", ImagingTestImages.webpLossless)
    ])
    func aStillImageIsScaledToItsLongestSideWithItsColours(name: String, bytes: [UInt8]) throws {
        let thumbnail = try thumbnailer.thumbnail(of: bytes)
        #expect(thumbnail.width == 320 && thumbnail.height == 160, "\(name)")
        #expect(Thumbnailer.Format.sniff(thumbnail.bytes) == .jpeg)
        let decoded = try thumbnailer.decode(thumbnail.bytes)
        #expect(ThumbnailerTests.near(decoded.rgb(x: 40, y: 80), (255, 0, 0)), "\(name)")
        #expect(ThumbnailerTests.near(decoded.rgb(x: 280, y: 80), (0, 0, 255)), "\(name)")
    }

    @Test func anInterlacedGIFsRowsLandWhereTheyBelong() throws {
        let decoded = try thumbnailer.decode(ImagingTestImages.gifTopBottom)
        #expect(decoded.width == 16 && decoded.height == 32)
        for y in 0..<32 {
            #expect(decoded.rgb(x: 8, y: y) == (y < 16 ? (255, 0, 0) : (0, 0, 255)), "row \(y)")
        }
        #expect(GIFReader.rowOrder(height: 10, interlaced: true) == [0, 8, 4, 2, 6, 1, 3, 5, 7, 9])
    }

    @Test(arguments: [ImagingTestImages.gifTransparentCorner, ImagingTestImages.webpTransparentCorner])
    func transparentPixelsAreComposedOntoWhite(bytes: [UInt8]) throws {
        let decoded = try thumbnailer.decode(bytes)
        #expect(decoded.channels == 4)
        #expect(decoded.pixels[3] == 0 && decoded.pixels[7] == 255)
        let small = decoded.downscaled(width: 4, height: 4)
        #expect(small.rgb(x: 0, y: 0) == (255, 255, 255) && small.rgb(x: 3, y: 3) == (0, 255, 0))
    }

    @Test(arguments: [ImagingTestImages.gifAnimated, ImagingTestImages.webpAnimated])
    func anAnimationIsShownByItsFirstFrame(bytes: [UInt8]) throws {
        let decoded = try thumbnailer.decode(bytes)
        #expect(decoded.width == 20 && decoded.height == 10)
        #expect(decoded.rgb(x: 10, y: 5) == (255, 0, 0))
        let thumbnail = try thumbnailer.thumbnail(of: bytes)
        #expect(thumbnail.width == 20 && thumbnail.height == 10)
    }

    @Test(arguments: [
        ImagingTestImages.gifBomb, ImagingTestImages.gifFrameBomb, ImagingTestImages.webpBomb, ImagingTestImages.webpAnimatedBomb
    ])
    func bombHeadersAreRefusedBeforeDecoding(bytes: [UInt8]) {
        #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: bytes) } == .tooManyPixels)
    }

    @Test func theLimitIsTheThumbnailers() {
        // 400×200 is 80,000 pixels; the animations' canvases are 200.
        let strict = Thumbnailer(maxPixels: 79_999)
        for bytes in [ImagingTestImages.gifHalves, ImagingTestImages.webpLossy, ImagingTestImages.webpLossless] {
            #expect(ThumbnailerTests.code { try strict.thumbnail(of: bytes) } == .tooManyPixels)
        }
        let tiny = Thumbnailer(maxPixels: 199)
        for bytes in [ImagingTestImages.gifAnimated, ImagingTestImages.webpAnimated] {
            #expect(ThumbnailerTests.code { try tiny.thumbnail(of: bytes) } == .tooManyPixels)
        }
    }

    @Test func zeroSizedAndTruncatedFilesAreCorrupt() {
        #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: ImagingTestImages.gifZeroSize) } == .corrupt)
        for bytes in [ImagingTestImages.gifHalves, ImagingTestImages.webpLossy, ImagingTestImages.webpLossless] {
            for keep in [bytes.count / 2, bytes.count - 8, 13] {
                #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: Array(bytes.prefix(keep))) } == .corrupt, "kept \(keep)")
            }
        }
        // An animation cut inside its first frame has none; a GIF cut after it still shows that frame.
        for bytes in [ImagingTestImages.gifAnimated, ImagingTestImages.webpAnimated] {
            #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: Array(bytes.prefix(30))) } == .corrupt)
        }
        #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: Array(ImagingTestImages.gifAnimated.dropLast(8))) } == nil)
    }

    @Test func corruptDataIsATypedError() {
        // The GIF's LZW data, and the WebPs' frame headers onwards, overwritten.
        for (bytes, from) in [(ImagingTestImages.gifHalves, 40), (ImagingTestImages.webpLossy, 20), (ImagingTestImages.webpLossless, 20)] {
            var broken = bytes
            for offset in from..<broken.count { broken[offset] = 0xFF }
            #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: broken) } == .corrupt)
        }
        #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: Array("GIF89a".utf8)) } == .corrupt)
        #expect(ThumbnailerTests.code { try thumbnailer.thumbnail(of: Array("RIFF\0\0\0\0WEBP".utf8)) } == .corrupt)
    }
}
