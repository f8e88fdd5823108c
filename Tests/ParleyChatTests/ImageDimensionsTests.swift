import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Image dimension sniffers")
struct ImageDimensionsTests {
    @Test(arguments: TestImages.all.map(\.name))
    func realImagesReportTheirSize(name: String) throws {
        let image = try #require(TestImages.all.first { $0.name == name })
        let bytes = try #require(Base64.decode(image.base64))
        #expect(ImageDimensions.sniff(bytes) == ImageDimensions(width: image.width, height: image.height))
    }

    @Test func truncatedHeadersGiveNothing() throws {
        for image in TestImages.all {
            let bytes = try #require(Base64.decode(image.base64))
            // Cut right before the size fields (and a little after the magic).
            for length in [0, 1, 4, 8, 12, 15, 20] {
                let prefix = Array(bytes.prefix(length))
                let result = ImageDimensions.sniff(prefix)
                #expect(
                    result == nil || result == ImageDimensions(width: image.width, height: image.height),
                    "\(image.name) cut at \(length) gave \(String(describing: result))")
            }
        }
        #expect(ImageDimensions.sniff(Array(repeating: 0x42, count: 64)) == nil)
        #expect(ImageDimensions.sniff(Array("just some text, not an image".utf8)) == nil)
    }

    @Test func jpegSkipsFillBytesAndSegmentsBeforeTheFrame() {
        // SOI, APP0 (length 4), fill bytes, SOF2 with height 0x0102 and width 0x0304.
        let bytes: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 0xFF, 0xFF, 0xFF, 0xC2, 0x00, 0x0B, 0x08,
            0x01, 0x02, 0x03, 0x04, 0x01, 0x01, 0x11, 0x00
        ]
        #expect(ImageDimensions.sniff(bytes) == ImageDimensions(width: 0x0304, height: 0x0102))
        // A DHT (C4) segment must not be mistaken for a frame header.
        let dht: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x06, 0x00, 0x09, 0x00, 0x09, 0xFF, 0xC0, 0x00, 0x0B, 0x08,
            0x00, 0x05, 0x00, 0x07, 0x01, 0x01, 0x11, 0x00
        ]
        #expect(ImageDimensions.sniff(dht) == ImageDimensions(width: 7, height: 5))
        // A segment length running past the end stops the walk.
        #expect(ImageDimensions.sniff([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00]) == nil)
        // The scan starts before any frame header: no size.
        #expect(ImageDimensions.sniff([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]) == nil)
    }

    @Test func pngNeedsIHDRFirst() throws {
        var bytes = try #require(Base64.decode(TestImages.pngRGB.base64))
        bytes[12] = UInt8(ascii: "X")
        #expect(ImageDimensions.sniff(bytes) == nil)
    }
}
