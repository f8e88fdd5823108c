import CWebP

/// WebP through libwebp: still images (lossy, lossless, with or without alpha) decoded straight
/// into Swift memory; an animated one's first frame through ``WebPAnimationDecoder``.
enum WebPCodec {
    /// Decodes `bytes` to RGB, or RGBA when the image has alpha, refusing before any pixel
    /// memory is allocated when the header (an animation's canvas) declares more than `maxPixels`.
    static func decode(_ bytes: UnsafeRawBufferPointer, maxPixels: Int) throws(ImageError) -> PixelBuffer {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw ImageError(.corrupt, "WebP: empty") }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base, bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw ImageError(.corrupt, "WebP: \(describe(status))") }
        let width = Int(features.width)
        let height = Int(features.height)
        try ImageLimits.check(width: width, height: height, maxPixels: maxPixels)
        if features.has_animation != 0 { return try WebPAnimationDecoder(bytes).firstFrame(maxPixels: maxPixels) }
        let channels = features.has_alpha != 0 ? 4 : 3
        let stride = width * channels
        guard stride <= Int(Int32.max) else { throw ImageError(.tooManyPixels, "WebP: rows of \(width) pixels are too wide") }
        var pixels = [UInt8](repeating: 0, count: stride * height)
        let written = pixels.withUnsafeMutableBufferPointer { out in
            channels == 4
                ? WebPDecodeRGBAInto(base, bytes.count, out.baseAddress, out.count, Int32(stride))
                : WebPDecodeRGBInto(base, bytes.count, out.baseAddress, out.count, Int32(stride))
        }
        guard written != nil else { throw ImageError(.corrupt, "WebP: the image data does not decode") }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// libwebp's status codes in words.
    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: "truncated"
        default: "status \(status.rawValue)"
        }
    }
}
