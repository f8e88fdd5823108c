import ParleyWireCore

/// An uploaded file's metadata.
public struct Attachment: Sendable, Hashable, Identifiable {
    /// The attachment's id, unique within the app (use it in ``MessagePart/attachment(id:)``).
    public var id: String
    /// The room it belongs to.
    public var roomID: String
    /// Who uploaded it.
    public var uploaderID: String
    /// The file's name as uploaded (no path), when the uploader gave one.
    public var name: String?
    /// Its media type.
    public var contentType: String
    /// Its size in bytes.
    public var size: Int64
    /// Pixel width, for images.
    public var width: Int?
    /// Pixel height, for images.
    public var height: Int?
    /// When it was uploaded, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// A signed path usable without credentials until it expires, when the server sent one.
    public var downloadURL: String?
    /// When ``downloadURL`` expires, seconds since the Unix epoch.
    public var downloadURLExpiresAt: Int64?
    /// A signed path to a small JPEG of an uploaded PNG, JPEG, GIF or WebP image (an animation's
    /// first frame; longest side 320 pixels unless the server is configured otherwise), valid as
    /// long as ``downloadURL``; nil for other files, images the server could not read, and when
    /// the server makes no thumbnails.
    public var thumbnailURL: String?

    /// Creates an attachment value.
    public init(
        id: String, roomID: String, uploaderID: String, contentType: String, size: Int64,
        width: Int? = nil, height: Int? = nil, createdAt: Int64 = 0, downloadURL: String? = nil, downloadURLExpiresAt: Int64? = nil,
        name: String? = nil, thumbnailURL: String? = nil
    ) {
        self.name = name
        self.thumbnailURL = thumbnailURL
        self.id = id
        self.roomID = roomID
        self.uploaderID = uploaderID
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
        self.createdAt = createdAt
        self.downloadURL = downloadURL
        self.downloadURLExpiresAt = downloadURLExpiresAt
    }

    /// Reads the API's form.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "attachment")
        self.init(
            id: try r.string("id"), roomID: try r.string("room_id"), uploaderID: try r.string("uploader_id"),
            contentType: try r.string("content_type"), size: try r.int64("size"),
            width: try r.int64IfPresent("width").map { Int($0) }, height: try r.int64IfPresent("height").map { Int($0) },
            createdAt: try r.int64IfPresent("created_at") ?? 0, downloadURL: try r.stringIfPresent("download_url"),
            downloadURLExpiresAt: try r.int64IfPresent("download_url_expires_at"), name: try r.stringIfPresent("name"),
            thumbnailURL: try r.stringIfPresent("thumbnail_url"))
    }

    /// The API's form; the download URL and its expiry, and the thumbnail URL, only when there is one.
    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "room_id": .string(roomID), "uploader_id": .string(uploaderID),
            "content_type": .string(contentType), "size": .int64(size),
            "width": .optional(width), "height": .optional(height), "created_at": .int64(createdAt)
        ]
        if let name { object["name"] = .string(name) }
        if let downloadURL {
            object["download_url"] = .string(downloadURL)
            object["download_url_expires_at"] = .optional(downloadURLExpiresAt)
        }
        if let thumbnailURL { object["thumbnail_url"] = .string(thumbnailURL) }
        return .object(object)
    }
}
