import CTurboJPEG

/// A buffer TurboJPEG allocated (the encoder's output), released with `tjFree`.
struct TurboJPEGBuffer: ~Copyable {
    var pointer: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0

    init() { pointer = nil }

    deinit { tjFree(pointer) }

    /// A Swift copy of the bytes.
    var bytes: [UInt8] {
        guard let pointer else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(size)))
    }
}
