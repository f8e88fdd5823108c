import ParleyImaging
import ParleyStore
import ParleyWire

/// Thumbnails of PNG, JPEG, GIF and WebP attachments: made at upload, kept beside the file,
/// served by the download route with `thumb=1` (the same credentials or signed URL as the file
/// itself), and counted with the file towards the app's attachment quota.
extension ChatService {
    /// Makes later uploads' thumbnails with `settings` (a reload of the config file); settings
    /// the thumbnailer would not accept are refused and the ones in force stay.
    public func reloadThumbnails(_ settings: ThumbnailSettings) throws(ChatError) {
        guard settings.isValid else { throw ChatError(.validationFailed, "thumbnail settings out of range") }
        thumbnailSettings.withLock { $0 = settings }
    }

    /// The thumbnail settings in force.
    public var currentThumbnailSettings: ThumbnailSettings { thumbnailSettings.withLock { $0 } }

    /// The image types that get a thumbnail.
    static let thumbnailTypes: Set<SniffedMediaType> = [.png, .jpeg, .gif, .webp]

    /// Makes and stores the thumbnail of an upload at `path` when thumbnails are on and it is an
    /// image of a thumbnailed type within the thumbnail pixel limit; the thumbnail's size in bytes
    /// (0: none). An image that does not decode simply has none: its header was already
    /// checked, and the original is still served as uploaded.
    func storeThumbnail(
        of bytes: [UInt8], type: SniffedMediaType, dimensions: ImageDimensions?, path: String
    ) async throws(ChatError)
        -> Int64
    {
        let settings = thumbnailSettings.withLock { $0 }
        guard settings.enabled, Self.thumbnailTypes.contains(type), let dimensions,
            dimensions.width * dimensions.height <= settings.maxPixels
        else { return 0 }
        guard case .success(let thumbnail) = await thumbnails.thumbnail(of: bytes, by: settings.thumbnailer) else { return 0 }
        try files.write(thumbnail.bytes, to: AttachmentFiles.thumbnailPath(of: path))
        return Int64(thumbnail.bytes.count)
    }

    /// The signed thumbnail URL of an attachment that has a thumbnail: its download URL with `thumb=1`.
    func thumbnailURL(_ stored: StoredAttachment, downloadURL: String?) -> String? {
        guard let downloadURL, files.exists(AttachmentFiles.thumbnailPath(of: stored.storagePath)) else { return nil }
        return downloadURL + "&thumb=1"
    }

    /// Whether a download asks for the thumbnail (`thumb=1`); any other value is refused.
    static func wantsThumbnail(_ request: ChatRequest) throws(ChatError) -> Bool {
        guard let value = request.queryValue("thumb") else { return false }
        guard value == "1" else { throw ChatError(.invalidRequest, "thumb must be 1 (or left out for the file itself)") }
        return true
    }

    /// The thumbnail's response: a JPEG shown inline.
    func thumbnailResponse(_ attachment: StoredAttachment) throws(ChatError) -> ChatResponse {
        guard let bytes = try files.read(AttachmentFiles.thumbnailPath(of: attachment.storagePath)) else {
            throw ChatError(
                .attachmentNotFound, "this attachment has no thumbnail (only PNG, JPEG, GIF and WebP images that decode have one)")
        }
        var headers: HTTPHeaders = ["Content-Type": "image/jpeg"]
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Content-Disposition", "inline")
        headers.add("Content-Security-Policy", "sandbox")
        headers.add("Cache-Control", "private, max-age=\(configuration.limits.downloadURLSeconds)")
        return ChatResponse(status: .ok, headers: headers, body: bytes)
    }
}
