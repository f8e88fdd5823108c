import ParleyWire

/// One file of the browser client, ready to send: its bytes, their gzip form (when smaller)
/// and the entity tags of both.
struct WebAsset: Sendable {
    let contentType: String
    let body: [UInt8]
    /// The gzip encoding, kept only when it saves bytes.
    let gzipped: [UInt8]?
    /// Strong tag of `body`; the gzip form's tag adds `-gz` (a different representation).
    let etag: String
    var gzipETag: String { String(etag.dropLast()) + "-gz\"" }

    init(name: String, body: [UInt8]) {
        contentType = Self.contentType(of: name)
        self.body = body
        let compressed = Gzip.compress(body)
        gzipped = compressed.flatMap { $0.count < body.count ? $0 : nil }
        etag = "\"" + Digest.sha256(body).prefix(12).hexString + "\""
    }

    /// The media type of a file name, by its extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json", "webmanifest": "application/json"
        default: "application/octet-stream"
        }
    }

    /// Whether `If-None-Match` names either representation (or `*`).
    func matches(ifNoneMatch field: String?) -> Bool {
        guard let field else { return false }
        return field.split(separator: ",").contains { item in
            let tag = Self.trimmed(item)
            let strong = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            return strong == "*" || strong == etag || strong == gzipETag
        }
    }

    /// Whether an `Accept-Encoding` field accepts gzip (listed, or `*`, without `q=0`).
    static func acceptsGzip(_ field: String?) -> Bool {
        guard let field else { return false }
        for item in field.split(separator: ",") {
            let pieces = item.split(separator: ";").map { trimmed($0).lowercased() }
            guard let coding = pieces.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            return !pieces.dropFirst().contains { parameter in
                let compact = parameter.filter { $0 != " " && $0 != "\t" }
                return compact.hasPrefix("q=") && compact.dropFirst(2).allSatisfy { $0 == "0" || $0 == "." }
            }
        }
        return false
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
