/// A JPEG thumbnail and its pixel size.
public struct Thumbnail: Sendable, Equatable {
    /// The JPEG file.
    public let bytes: [UInt8]
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
}
