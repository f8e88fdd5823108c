import CTurboJPEG

/// One TurboJPEG compressor or decompressor instance, destroyed when the value goes away.
///
/// Every TurboJPEG call returns an error code (libjpeg's longjmp recovery stays inside the
/// library), so failures surface here as ``ImageError`` values.
struct TurboJPEGHandle: ~Copyable {
    let raw: tjhandle

    /// A decompressor.
    static func decompressor() throws(ImageError) -> TurboJPEGHandle {
        guard let raw = tjInitDecompress() else { throw ImageError(.corrupt, "JPEG: the decoder could not start") }
        return TurboJPEGHandle(raw: raw)
    }

    /// A compressor.
    static func compressor() throws(ImageError) -> TurboJPEGHandle {
        guard let raw = tjInitCompress() else { throw ImageError(.encodeFailed, "JPEG: the encoder could not start") }
        return TurboJPEGHandle(raw: raw)
    }

    private init(raw: tjhandle) { self.raw = raw }

    deinit { tjDestroy(raw) }

    /// The library's message for this instance's last failure.
    var message: String {
        guard let text = tjGetErrorStr2(raw) else { return "unknown error" }
        return String(cString: text)
    }
}
