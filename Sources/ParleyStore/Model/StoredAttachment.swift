/// An attachment's metadata as the store keeps it: the API's value plus where the bytes live,
/// which only the service sees. Members of the value read through (`stored.id`).
@dynamicMemberLookup
public struct StoredAttachment: Sendable, Hashable {
    /// The metadata the API shows.
    public var attachment: Attachment
    /// Where the file is, relative to the data directory.
    public var storagePath: String
    /// The bytes of the thumbnail kept beside the file (0: none, or made before sizes were
    /// recorded); counted with `size` towards the app's attachment quota.
    public var thumbnailSize: Int64

    /// Wraps a value.
    public init(_ attachment: Attachment, storagePath: String, thumbnailSize: Int64 = 0) {
        self.attachment = attachment
        self.storagePath = storagePath
        self.thumbnailSize = thumbnailSize
    }

    /// Describes an attachment (to record: the store sets `createdAt`).
    public init(
        id: String, roomID: String, uploaderID: String, contentType: String, size: Int64,
        width: Int? = nil, height: Int? = nil, storagePath: String, createdAt: Int64 = 0, name: String? = nil,
        thumbnailSize: Int64 = 0
    ) {
        self.init(
            Attachment(
                id: id, roomID: roomID, uploaderID: uploaderID, contentType: contentType, size: size,
                width: width, height: height, createdAt: createdAt, name: name), storagePath: storagePath,
            thumbnailSize: thumbnailSize)
    }

    /// A member of the metadata.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Attachment, Value>) -> Value {
        get { attachment[keyPath: keyPath] }
        set { attachment[keyPath: keyPath] = newValue }
    }
}
