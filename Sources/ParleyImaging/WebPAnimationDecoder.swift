import CWebP

/// One libwebp animation decoder (`WebPAnimDecoder`), owned: deleted when the value goes away.
/// The bytes it was made from must outlive it (the demuxer keeps pointers into them).
struct WebPAnimationDecoder: ~Copyable {
    private let raw: OpaquePointer

    /// Parses the animation's chunks (no frame is decoded yet); single-threaded, RGBA output.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageError) {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw ImageError(.corrupt, "WebP: libwebp version mismatch") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let raw = WebPAnimDecoderNew(&data, &options) else { throw ImageError(.corrupt, "WebP: the animation does not parse") }
        self.raw = raw
    }

    deinit { WebPAnimDecoderDelete(raw) }

    /// The first frame composed onto the canvas, as RGBA (the canvas checked against `maxPixels` again).
    func firstFrame(maxPixels: Int) throws(ImageError) -> PixelBuffer {
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(raw, &info) != 0 else { throw ImageError(.corrupt, "WebP: no animation info") }
        let width = Int(info.canvas_width)
        let height = Int(info.canvas_height)
        try ImageLimits.check(width: width, height: height, maxPixels: maxPixels)
        var frame: UnsafeMutablePointer<UInt8>? = nil
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(raw, &frame, &timestamp) != 0, let frame else {
            throw ImageError(.corrupt, "WebP: the first frame does not decode")
        }
        // The decoder owns the canvas and reuses it for the next frame: copy it out.
        let pixels = Array(UnsafeBufferPointer(start: frame, count: width * height * 4))
        return PixelBuffer(width: width, height: height, channels: 4, pixels: pixels)
    }
}
