extension PixelBuffer {
    /// An RGB copy of `newWidth × newHeight` (at most the current size), each output pixel the
    /// mean of the source pixels it covers. Transparent pixels are composed onto white, weighted
    /// by their alpha, so a transparent image's hidden colours do not bleed into the thumbnail.
    public func downscaled(width newWidth: Int, height newHeight: Int) -> PixelBuffer {
        precondition(newWidth >= 1 && newHeight >= 1 && newWidth <= width && newHeight <= height, "downscaling only")
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        // Row sums over the source columns each output column covers, reused for every output row.
        let columnStarts = (0...newWidth).map { $0 * width / newWidth }
        let rowStarts = (0...newHeight).map { $0 * height / newHeight }
        pixels.withUnsafeBufferPointer { source in
            for outY in 0..<newHeight {
                for outX in 0..<newWidth {
                    let sum = area(
                        source, columns: columnStarts[outX]..<columnStarts[outX + 1], rows: rowStarts[outY]..<rowStarts[outY + 1])
                    let at = (outY * newWidth + outX) * 3
                    out[at] = sum.0
                    out[at + 1] = sum.1
                    out[at + 2] = sum.2
                }
            }
        }
        return PixelBuffer(width: newWidth, height: newHeight, channels: 3, pixels: out)
    }

    /// The mean colour of a rectangle, composed onto white.
    private func area(_ source: UnsafeBufferPointer<UInt8>, columns: Range<Int>, rows: Range<Int>) -> (UInt8, UInt8, UInt8) {
        var red = 0
        var green = 0
        var blue = 0
        var coverage = 0  // sum of alpha, 255 per opaque pixel
        for y in rows {
            var at = (y * width + columns.lowerBound) * channels
            for _ in columns {
                let alpha = channels == 4 ? Int(source[at + 3]) : 255
                red += Int(source[at]) * alpha
                green += Int(source[at + 1]) * alpha
                blue += Int(source[at + 2]) * alpha
                coverage += alpha
                at += channels
            }
        }
        let count = columns.count * rows.count
        let white = (count * 255 - coverage) * 255  // what the uncovered share contributes
        let divisor = count * 255
        func mean(_ sum: Int) -> UInt8 { UInt8(clamping: (sum + white + divisor / 2) / divisor) }
        return (mean(red), mean(green), mean(blue))
    }
}
