/// Metadata of a file uploaded to a room; the bytes live at `storagePath`.
public struct Attachment: Sendable, Hashable {
    /// The attachment's id, unique within the app.
    public var id: String
    /// The room it belongs to.
    public var roomID: String
    /// Who uploaded it.
    public var uploaderID: String
    /// Its media type.
    public var contentType: String
    /// Its size in bytes.
    public var size: Int64
    /// Pixel width, for images.
    public var width: Int?
    /// Pixel height, for images.
    public var height: Int?
    /// Where the file is, relative to the data directory.
    public var storagePath: String
    /// When it was uploaded.
    public var createdAt: Int64

    /// Creates an attachment value.
    public init(id: String, roomID: String, uploaderID: String, contentType: String, size: Int64,
                width: Int?, height: Int?, storagePath: String, createdAt: Int64) {
        self.id = id
        self.roomID = roomID
        self.uploaderID = uploaderID
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
        self.storagePath = storagePath
        self.createdAt = createdAt
    }
}
