import CTurboJPEG

/// JPEG through libjpeg-turbo's TurboJPEG API: decoding (strict, scaled down by the decoder
/// where it can) and encoding of RGB pixels.
enum JPEGCodec {
    /// Strict: a warning (truncated data, a corrupt segment) is an error, and progressive images
    /// are limited to libjpeg-turbo's scan limit (a many-scan file costs CPU out of all proportion).
    private static let decodeFlags = Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)

    /// Decodes `bytes` to RGB, refusing before any pixel memory is allocated when the header
    /// declares more than `maxPixels`. The decoder scales by 1/2, 1/4 or 1/8 when that still
    /// leaves the longest side at least `longestSide` (or the whole image, when it is smaller).
    static func decode(_ bytes: UnsafeRawBufferPointer, maxPixels: Int, longestSide: Int) throws(ImageError) -> PixelBuffer {
        let decoder = try TurboJPEGHandle.decompressor()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw ImageError(.corrupt, "JPEG: empty") }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard tjDecompressHeader3(decoder.raw, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw ImageError(.corrupt, "JPEG: \(decoder.message)")
        }
        try ImageLimits.check(width: Int(width), height: Int(height), maxPixels: maxPixels)
        let size = scaledSize(width: Int(width), height: Int(height), longestSide: longestSide)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            tjDecompress2(
                decoder.raw, base, UInt(bytes.count), out.baseAddress, Int32(size.width), 0, Int32(size.height),
                Int32(TJPF_RGB.rawValue), decodeFlags)
        }
        guard status == 0 else { throw ImageError(.corrupt, "JPEG: \(decoder.message)") }
        return PixelBuffer(width: size.width, height: size.height, channels: 3, pixels: pixels)
    }

    /// Encodes RGB pixels (4:2:0 chroma, `quality` 1…100).
    static func encode(_ image: PixelBuffer, quality: Int) throws(ImageError) -> [UInt8] {
        precondition(image.channels == 3, "JPEG output is RGB")
        let encoder = try TurboJPEGHandle.compressor()
        var output = TurboJPEGBuffer()
        let status = image.pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                encoder.raw, source.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                &output.pointer, &output.size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        guard status == 0 else { throw ImageError(.encodeFailed, "JPEG: \(encoder.message)") }
        return output.bytes
    }

    /// The smallest of the decoder's scaled sizes whose longest side still reaches
    /// `min(longestSide, the image's longest side)`.
    static func scaledSize(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let wanted = min(longestSide, max(width, height))
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width: width, height: height)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            let scaled = (width: (width * num + denom - 1) / denom, height: (height * num + denom - 1) / denom)
            if max(scaled.width, scaled.height) >= wanted, scaled.width * scaled.height < best.width * best.height {
                best = scaled
            }
        }
        return best
    }
}
