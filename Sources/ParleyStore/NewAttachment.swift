/// What it takes to record an uploaded file.
public struct NewAttachment: Sendable, Hashable {
    /// The id (the caller usually names the stored file after it).
    public var id: String
    /// The room; the uploader must be a member.
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

    /// Describes an attachment to record.
    public init(id: String, roomID: String, uploaderID: String, contentType: String, size: Int64,
                width: Int? = nil, height: Int? = nil, storagePath: String) {
        self.id = id
        self.roomID = roomID
        self.uploaderID = uploaderID
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
        self.storagePath = storagePath
    }
}
