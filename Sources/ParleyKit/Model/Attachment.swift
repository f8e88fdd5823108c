import ParleyWireCore

/// An uploaded file's metadata.
public struct Attachment: Sendable, Equatable, Identifiable {
    /// The attachment's id (use it in ``MessagePart/attachment(id:)``).
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
    /// A signed path usable without credentials until it expires, when the server sent one.
    public var downloadURL: String?

    /// Creates an attachment value.
    public init(id: String, roomID: String, uploaderID: String, contentType: String, size: Int64,
                width: Int? = nil, height: Int? = nil, downloadURL: String? = nil) {
        self.id = id
        self.roomID = roomID
        self.uploaderID = uploaderID
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
        self.downloadURL = downloadURL
    }

    init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "attachment")
        self.init(id: try r.string("id"), roomID: try r.string("room_id"), uploaderID: try r.string("uploader_id"),
                  contentType: try r.string("content_type"), size: try r.int64("size"),
                  width: r.optionalInt64("width").map(Int.init), height: r.optionalInt64("height").map(Int.init),
                  downloadURL: r.optionalString("download_url"))
    }

    package var json: JSONValue {
        .object(["id": .string(id), "room_id": .string(roomID), "uploader_id": .string(uploaderID), "content_type": .string(contentType),
                 "size": .number(String(size)), "width": width.map(JSONValue.int) ?? .null, "height": height.map(JSONValue.int) ?? .null,
                 "created_at": .int(0), "download_url": .string(downloadURL ?? "/v1/attachments/\(id)/content"),
                 "download_url_expires_at": .int(0)])
    }
}
