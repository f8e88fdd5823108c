extension PixelBuffer {
    /// The image turned or mirrored as EXIF `orientation` (1…8) asks; itself for 1 or an unknown value.
    public func oriented(_ orientation: Int) -> PixelBuffer {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5  // 5…8 exchange width and height
        let newWidth = swaps ? height : width
        let newHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
        for y in 0..<newHeight {
            for x in 0..<newWidth {
                let (sourceX, sourceY) = Self.source(x: x, y: y, orientation: orientation, width: width, height: height)
                let from = (sourceY * width + sourceX) * channels
                let to = (y * newWidth + x) * channels
                for channel in 0..<channels { out[to + channel] = pixels[from + channel] }
            }
        }
        return PixelBuffer(width: newWidth, height: newHeight, channels: channels, pixels: out)
    }

    /// Where output pixel (`x`, `y`) comes from in a `width × height` source.
    private static func source(x: Int, y: Int, orientation: Int, width: Int, height: Int) -> (Int, Int) {
        switch orientation {
        case 2: return (width - 1 - x, y)  // mirrored left-right
        case 3: return (width - 1 - x, height - 1 - y)  // turned 180°
        case 4: return (x, height - 1 - y)  // mirrored top-bottom
        case 5: return (y, x)  // transposed
        case 6: return (y, height - 1 - x)  // turned 90° clockwise
        case 7: return (width - 1 - y, height - 1 - x)  // transversed
        default: return (width - 1 - y, x)  // 8: turned 90° counter-clockwise
        }
    }
}
