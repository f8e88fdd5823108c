/// The decompression-bomb check every decoder makes between reading a header and allocating.
enum ImageLimits {
    /// Throws unless `width × height` is positive and at most `maxPixels`.
    static func check(width: Int, height: Int, maxPixels: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw ImageError(.corrupt, "the header declares \(width)×\(height) pixels") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw ImageError(.tooManyPixels, "\(width)×\(height) is more than \(maxPixels) pixels")
        }
    }
}
