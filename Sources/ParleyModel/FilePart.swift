import ParleyWireCore

/// A message part that carries a file of any type, with the metadata a client needs to show it
/// without fetching the attachment first.
///
/// A sender names only the attachment (`{"type":"file","attachment_id":…}`); the server copies
/// the name, size, type and (for images) dimensions from the uploaded attachment, so what a
/// message says about its file is always what was uploaded.
public struct FilePart: Sendable, Hashable {
    /// The attachment's id (an upload of the same room).
    public var attachmentID: String
    /// The file's name as uploaded (safe for display; never a path).
    public var name: String
    /// The media type the server serves the file with.
    public var contentType: String
    /// The size in bytes.
    public var size: Int64
    /// Pixel width, for images.
    public var width: Int?
    /// Pixel height, for images.
    public var height: Int?

    /// Creates a file part.
    public init(attachmentID: String, name: String = "", contentType: String = "", size: Int64 = 0, width: Int? = nil, height: Int? = nil) {
        self.attachmentID = attachmentID
        self.name = name
        self.contentType = contentType
        self.size = size
        self.width = width
        self.height = height
    }

    /// The part describing `attachment` (its name, or its id when it has none).
    public init(_ attachment: Attachment) {
        self.init(
            attachmentID: attachment.id, name: attachment.name ?? attachment.id, contentType: attachment.contentType,
            size: attachment.size, width: attachment.width, height: attachment.height)
    }

    /// The path the file downloads from with the caller's credentials
    /// (`GET /v1/attachments/{id}` gives a signed URL that needs none).
    public var url: String { "/v1/attachments/\(Self.pathSegment(attachmentID))/content" }

    /// Whether the server shows this file inline (images) rather than as a download.
    public var isImage: Bool {
        ["image/png", "image/jpeg", "image/gif", "image/webp"].contains(contentType.lowercased())
    }

    /// Reads the API's form (the `type` member is the caller's business).
    public init(json r: JSONReader) throws(ParleyError) {
        self.init(
            attachmentID: try r.string("attachment_id"), name: try r.stringIfPresent("name") ?? "",
            contentType: try r.stringIfPresent("content_type") ?? "", size: try r.int64IfPresent("size") ?? 0,
            width: try r.int64IfPresent("width").map { Int($0) }, height: try r.int64IfPresent("height").map { Int($0) })
    }

    /// The API's form.
    public var json: JSONValue {
        var object: JSONObject = [
            "type": .string("file"), "attachment_id": .string(attachmentID), "name": .string(name),
            "content_type": .string(contentType), "size": .int64(size), "url": .string(url)
        ]
        if let width { object["width"] = .int64(Int64(width)) }
        if let height { object["height"] = .int64(Int64(height)) }
        return .object(object)
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func pathSegment(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
