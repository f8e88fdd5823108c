/// Why an image could not be read or a thumbnail made; ``code`` is stable, ``message`` is for people.
public struct ImageError: Error, Sendable, Equatable {
    /// The kinds of failure.
    public enum Code: String, Sendable {
        /// Not PNG, JPEG, GIF or WebP by its leading bytes.
        case unsupportedFormat = "unsupported_format"
        /// The header declares more pixels than the decoder is allowed to allocate.
        case tooManyPixels = "too_many_pixels"
        /// The codec refused the bytes (truncated, corrupt, or a variant it does not decode).
        case corrupt = "corrupt_image"
        /// The codec could not encode the thumbnail.
        case encodeFailed = "encode_failed"
    }

    /// What went wrong.
    public let code: Code
    /// The codec's own words, when it gave any.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
