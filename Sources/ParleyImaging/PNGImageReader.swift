import CPNG

/// One libpng simplified-API read (`png_image`), owned: the struct lives at a fixed address
/// (libpng keeps pointers to it between the two read calls) and is freed on every path.
///
/// The simplified API does its setjmp/longjmp inside libpng and reports failure through the
/// struct, so a corrupt file becomes an ``ImageError`` and no jump crosses a Swift frame.
struct PNGImageReader: ~Copyable {
    private let image: UnsafeMutablePointer<png_image>

    init() {
        image = .allocate(capacity: 1)
        image.initialize(to: png_image())
        image.pointee.version = UInt32(PNG_IMAGE_VERSION)
    }

    deinit {
        png_image_free(image)
        image.deinitialize(count: 1)
        image.deallocate()
    }

    /// Decodes `bytes` to RGB, or RGBA when the file has transparency, refusing before any pixel memory is allocated when the header
    /// declares more than `maxPixels`.
    func decode(_ bytes: UnsafeRawBufferPointer, maxPixels: Int) throws(ImageError) -> PixelBuffer {
        guard let base = bytes.baseAddress, png_image_begin_read_from_memory(image, base, bytes.count) != 0 else {
            throw ImageError(.corrupt, "PNG: \(message)")
        }
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        try ImageLimits.check(width: width, height: height, maxPixels: maxPixels)
        // Alpha only when the file has it (a tRNS chunk counts): adding an opaque channel costs time.
        let channels = cpng_format_has_alpha(image.pointee.format) != 0 ? 4 : 3
        image.pointee.format = channels == 4 ? cpng_format_rgba() : cpng_format_rgb()
        let stride = width * channels
        guard stride <= Int(Int32.max) else { throw ImageError(.tooManyPixels, "PNG: rows of \(width) pixels are too wide") }
        var pixels = [UInt8](repeating: 0, count: stride * height)
        let finished = pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(image, nil, out.baseAddress, Int32(stride), nil)
        }
        guard finished != 0, cpng_image_failed(image) == 0 else { throw ImageError(.corrupt, "PNG: \(message)") }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// libpng's message for the last warning or error (a NUL-terminated 64-byte field).
    private var message: String {
        withUnsafeBytes(of: image.pointee.message) { raw in
            let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "not a PNG image" : text
        }
    }
}
