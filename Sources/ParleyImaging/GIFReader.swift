import CGIF

/// One giflib decoder over bytes in memory, owned: `DGifCloseFile` frees it on every path, and
/// the input it reads from lives exactly as long. The bytes must outlive the reader.
///
/// Only the first frame is decoded (an animated GIF's thumbnail is its first picture), through
/// giflib's record-by-record calls rather than `DGifSlurp`, which would decode every frame.
struct GIFReader: ~Copyable {
    private let file: UnsafeMutablePointer<GifFileType>
    private let input: UnsafeMutablePointer<GIFInput>

    /// Opens `bytes` and reads the logical screen descriptor.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw ImageError(.corrupt, "GIF: empty") }
        let input = UnsafeMutablePointer<GIFInput>.allocate(capacity: 1)
        input.initialize(to: GIFInput(base: base, count: bytes.count))
        var error: Int32 = 0
        guard let file = DGifOpen(input, GIFInput.callback, &error) else {
            input.deinitialize(count: 1)
            input.deallocate()
            throw ImageError(.corrupt, "GIF: \(Self.describe(error))")
        }
        self.file = file
        self.input = input
    }

    deinit {
        DGifCloseFile(file, nil)
        input.deinitialize(count: 1)
        input.deallocate()
    }

    /// The first frame composed onto the logical screen as RGBA (outside the frame and its
    /// transparent colour: transparent), refusing before any pixel memory is allocated when the
    /// screen or the frame declares more than `maxPixels`.
    func decodeFirstFrame(maxPixels: Int) throws(ImageError) -> PixelBuffer {
        let width = Int(file.pointee.SWidth)
        let height = Int(file.pointee.SHeight)
        try ImageLimits.check(width: width, height: height, maxPixels: maxPixels)
        var transparentIndex: Int? = nil
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(file, &record) == GIF_OK else { throw failure() }
            switch record {
            case EXTENSION_RECORD_TYPE:
                try readExtension(transparentIndex: &transparentIndex)
            case IMAGE_DESC_RECORD_TYPE:
                return try readFrame(canvasWidth: width, canvasHeight: height, transparentIndex: transparentIndex, maxPixels: maxPixels)
            default:
                throw ImageError(.corrupt, "GIF: no image before the end of the file")
            }
        }
    }

    /// Reads past an extension; a graphic control extension sets the next frame's transparent colour.
    private func readExtension(transparentIndex: inout Int?) throws(ImageError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>? = nil
        guard DGifGetExtension(file, &code, &block) == GIF_OK else { throw failure() }
        // A graphic control block: length 4, flags (bit 0: transparency), delay (2 bytes), index.
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            transparentIndex = block[1] & 1 == 1 ? Int(block[4]) : nil
        }
        while block != nil {
            guard DGifGetExtensionNext(file, &block) == GIF_OK else { throw failure() }
        }
    }

    /// Reads the frame whose descriptor comes next, row by row, into a canvas of the screen's size.
    private func readFrame(canvasWidth: Int, canvasHeight: Int, transparentIndex: Int?, maxPixels: Int) throws(ImageError) -> PixelBuffer {
        guard DGifGetImageDesc(file) == GIF_OK else { throw failure() }
        let frame = file.pointee.Image
        let frameWidth = Int(frame.Width)
        let frameHeight = Int(frame.Height)
        // The frame is decoded whole even where it lies off the screen: bound the work as well.
        try ImageLimits.check(width: frameWidth, height: frameHeight, maxPixels: maxPixels)
        guard let colorMap = frame.ColorMap ?? file.pointee.SColorMap, let colors = colorMap.pointee.Colors else {
            throw ImageError(.corrupt, "GIF: the frame has no colour table")
        }
        let palette = UnsafeBufferPointer(start: colors, count: Int(max(0, colorMap.pointee.ColorCount)))
        var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
        var row = [GifPixelType](repeating: 0, count: frameWidth)
        for y in Self.rowOrder(height: frameHeight, interlaced: frame.Interlace) {
            let status = row.withUnsafeMutableBufferPointer { DGifGetLine(file, $0.baseAddress, Int32(frameWidth)) }
            guard status == GIF_OK else { throw failure() }
            let canvasY = Int(frame.Top) + y
            guard canvasY < canvasHeight else { continue }
            for x in 0..<frameWidth {
                let canvasX = Int(frame.Left) + x
                let index = Int(row[x])
                guard canvasX < canvasWidth, index != transparentIndex, index < palette.count else { continue }
                let at = (canvasY * canvasWidth + canvasX) * 4
                canvas[at] = palette[index].Red
                canvas[at + 1] = palette[index].Green
                canvas[at + 2] = palette[index].Blue
                canvas[at + 3] = 255
            }
        }
        return PixelBuffer(width: canvasWidth, height: canvasHeight, channels: 4, pixels: canvas)
    }

    /// The rows in the order the file stores them: top to bottom, or the four interlace passes
    /// (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    private func failure() -> ImageError {
        ImageError(.corrupt, "GIF: \(Self.describe(file.pointee.Error))")
    }

    private static func describe(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
