import Testing

@testable import ParleyImaging

/// The codec wrappers over libpng and libjpeg-turbo: real files of every PNG colour type the
/// API sees, JPEG variants, and the ways untrusted bytes go wrong.
@Suite struct ThumbnailerTests {
    let thumbnailer = Thumbnailer()

    /// The colour of a pixel is close to `expected` (JPEG is lossy).
    static func near(_ actual: (UInt8, UInt8, UInt8), _ expected: (Int, Int, Int), within: Int = 40) -> Bool {
        abs(Int(actual.0) - expected.0) <= within && abs(Int(actual.1) - expected.1) <= within
            && abs(Int(actual.2) - expected.2) <= within
    }

    @Test func aPNGIsScaledToItsLongestSideWithItsAspectKept() throws {
        let thumbnail = try thumbnailer.thumbnail(of: ImagingTestImages.pngHalves)
        #expect(thumbnail.width == 320 && thumbnail.height == 160)
        #expect(Thumbnailer.Format.sniff(thumbnail.bytes) == .jpeg)
        // The thumbnail decodes back, red on the left and blue on the right.
        let decoded = try thumbnailer.decode(thumbnail.bytes)
        #expect(decoded.width == 320 && decoded.height == 160)
        #expect(Self.near(decoded.rgb(x: 40, y: 80), (255, 0, 0)))
        #expect(Self.near(decoded.rgb(x: 280, y: 80), (0, 0, 255)))
    }

    @Test func aJPEGIsScaledByTheDecoderThenToSize() throws {
        // 640×480: the decoder's 1/2 scale already gives 320×240.
        #expect(JPEGCodec.scaledSize(width: 640, height: 480, longestSide: 320) == (320, 240))
        // 4000×3000 decodes at 1/8 (500×375), never below the thumbnail size.
        #expect(JPEGCodec.scaledSize(width: 4000, height: 3000, longestSide: 320) == (500, 375))
        let thumbnail = try thumbnailer.thumbnail(of: ImagingTestImages.jpegHalves)
        #expect(thumbnail.width == 320 && thumbnail.height == 240)
        let decoded = try thumbnailer.decode(thumbnail.bytes)
        #expect(Self.near(decoded.rgb(x: 20, y: 120), (255, 0, 0)) && Self.near(decoded.rgb(x: 300, y: 120), (0, 0, 255)))
    }

    @Test func smallImagesAreNeverEnlarged() throws {
        let cases: [([UInt8], Int, Int)] = [
            (ImagingTestImages.pngGray, 10, 6), (ImagingTestImages.pngGrayAlpha, 5, 5), (ImagingTestImages.pngPalette, 17, 5),
            (ImagingTestImages.pngSixteenBit, 6, 3), (ImagingTestImages.jpegGray, 8, 8), (ImagingTestImages.jpegProgressive, 50, 30)
        ]
        for (bytes, width, height) in cases {
            let thumbnail = try thumbnailer.thumbnail(of: bytes)
            #expect(thumbnail.width == width && thumbnail.height == height)
        }
    }

    @Test func everyPNGColourTypeDecodesToItsColours() throws {
        let gray = try thumbnailer.decode(ImagingTestImages.pngGrayAlpha)
        #expect(gray.channels == 4 && gray.rgb(x: 2, y: 2) == (128, 128, 128))
        let sixteen = try thumbnailer.decode(ImagingTestImages.pngSixteenBit)
        #expect(sixteen.rgb(x: 0, y: 0) == (255, 255, 255))
        let palette = try thumbnailer.decode(ImagingTestImages.pngPalette)
        #expect(palette.rgb(x: 0, y: 0) == (255, 0, 0) && palette.rgb(x: 16, y: 4) == (0, 0, 255))
        let gradient = try thumbnailer.decode(ImagingTestImages.pngGray)
        #expect(gradient.rgb(x: 0, y: 0).0 < gradient.rgb(x: 0, y: 5).0)
    }

    @Test func transparentPixelsAreComposedOntoWhite() throws {
        let decoded = try thumbnailer.decode(ImagingTestImages.pngTransparentCorner)
        let flat = decoded.downscaled(width: 4, height: 4)
        #expect(flat.rgb(x: 0, y: 0) == (255, 255, 255))
        #expect(flat.rgb(x: 1, y: 0) == (0, 255, 0))
        // Averaged 2×2: one white and three green pixels.
        #expect(decoded.downscaled(width: 2, height: 2).rgb(x: 0, y: 0) == (64, 255, 64))
    }

    @Test func theExifOrientationTurnsTheThumbnail() throws {
        #expect(ExifOrientation.read(ImagingTestImages.jpegExifRotated) == 6)
        #expect(ExifOrientation.read(ImagingTestImages.jpegHalves) == 1)
        let thumbnail = try thumbnailer.thumbnail(of: ImagingTestImages.jpegExifRotated)
        // Stored 40×20 with red on the left; turned clockwise it stands 20×40, red on top.
        #expect(thumbnail.width == 20 && thumbnail.height == 40)
        let decoded = try thumbnailer.decode(thumbnail.bytes)
        #expect(Self.near(decoded.rgb(x: 10, y: 5), (255, 0, 0)) && Self.near(decoded.rgb(x: 10, y: 35), (0, 0, 255)))
    }

    @Test func orientationsMoveEveryPixelWhereEXIFSays() {
        // 2×1: A B. Each orientation's expected layout, row by row.
        let image = PixelBuffer(width: 2, height: 1, channels: 3, pixels: [1, 1, 1, 2, 2, 2])
        let expected: [Int: (Int, Int, [UInt8])] = [
            1: (2, 1, [1, 2]), 2: (2, 1, [2, 1]), 3: (2, 1, [2, 1]), 4: (2, 1, [1, 2]),
            5: (1, 2, [1, 2]), 6: (1, 2, [1, 2]), 7: (1, 2, [2, 1]), 8: (1, 2, [2, 1])
        ]
        for (orientation, (width, height, order)) in expected {
            let turned = image.oriented(orientation)
            #expect(turned.width == width && turned.height == height, "orientation \(orientation)")
            #expect(stride(from: 0, to: turned.pixels.count, by: 3).map { turned.pixels[$0] } == order, "orientation \(orientation)")
        }
    }

    @Test func truncatedFilesAreTypedErrors() {
        // Cut in the pixel data (a PNG's last 12 bytes are its IEND chunk, after every pixel).
        for bytes in [ImagingTestImages.pngHalves, ImagingTestImages.jpegHalves, ImagingTestImages.jpegProgressive] {
            for keep in [bytes.count / 2, bytes.count - 16, 40] {
                #expect(Self.code { try thumbnailer.thumbnail(of: Array(bytes.prefix(keep))) } == .corrupt, "kept \(keep)")
            }
        }
    }

    @Test func corruptFilesAreTypedErrors() {
        // A PNG whose compressed pixels are altered (its chunk CRC no longer matches).
        var png = ImagingTestImages.pngHalves
        let idat = png.firstRange(of: Array("IDAT".utf8))!.upperBound
        for offset in idat + 2..<idat + 12 { png[offset] ^= 0x5A }
        #expect(Self.code { try thumbnailer.thumbnail(of: png) } == .corrupt)
        // A JPEG whose entropy-coded data is garbage.
        var jpeg = ImagingTestImages.jpegHalves
        let scan = jpeg.firstRange(of: [0xFF, 0xDA])!.upperBound + 20
        for offset in scan..<jpeg.count - 2 where jpeg[offset] != 0xFF { jpeg[offset] = 0xFF }
        #expect(Self.code { try thumbnailer.thumbnail(of: jpeg) } == .corrupt)
        #expect(Self.code { try thumbnailer.thumbnail(of: Array("BM6\0\0\0".utf8)) } == .unsupportedFormat)
        #expect(Self.code { try thumbnailer.thumbnail(of: []) } == .unsupportedFormat)
        #expect(Self.code { try thumbnailer.thumbnail(of: [0xFF, 0xD8, 0xFF, 0xD9]) } == .corrupt)
    }

    @Test func bombHeadersAreRefusedBeforeDecoding() {
        #expect(Self.code { try thumbnailer.thumbnail(of: ImagingTestImages.pngBomb) } == .tooManyPixels)
        #expect(Self.code { try thumbnailer.thumbnail(of: ImagingTestImages.jpegBomb) } == .tooManyPixels)
        // The limit is the thumbnailer's: 400×200 is 80,000 pixels.
        let strict = Thumbnailer(maxPixels: 79_999)
        #expect(Self.code { try strict.thumbnail(of: ImagingTestImages.pngHalves) } == .tooManyPixels)
        #expect(Self.code { try strict.thumbnail(of: ImagingTestImages.jpegHalves) } == .tooManyPixels)
    }

    @Test func fittedSizesKeepTheAspectRatio() {
        #expect(PixelBuffer.fittedSize(width: 4000, height: 3000, longestSide: 320) == (320, 240))
        #expect(PixelBuffer.fittedSize(width: 100, height: 5000, longestSide: 320) == (6, 320))
        #expect(PixelBuffer.fittedSize(width: 10_000, height: 1, longestSide: 320) == (320, 1))
        #expect(PixelBuffer.fittedSize(width: 320, height: 200, longestSide: 320) == (320, 200))
    }

    /// The code of the ImageError `body` throws; nil when it succeeds.
    static func code(_ body: () throws -> some Any) -> ImageError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? ImageError)?.code
        }
    }
}
