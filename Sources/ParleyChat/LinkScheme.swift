/// The URL schemes a user-supplied link may use: message URL parts and `avatar_url`.
///
/// Clients render these as links and images, so a `javascript:`, `data:` or `file:` URL would
/// run script or reach local files in whoever views it. The check is on the leading bytes,
/// case-insensitive, with nothing allowed before the scheme (browsers skip leading spaces and
/// control characters, so " javascript:" must not pass as "not a scheme").
enum LinkScheme {
    /// The allowed schemes, lowercase, as the OpenAPI document's pattern spells them.
    static let allowed = ["http", "https", "mailto"]

    /// Whether `url` starts with an allowed scheme and its colon.
    static func isAllowed(_ url: String) -> Bool {
        let bytes = Array(url.utf8.prefix(8))
        return allowed.contains { scheme in
            let prefix = Array((scheme + ":").utf8)
            guard bytes.count >= prefix.count else { return false }
            return zip(bytes, prefix).allSatisfy { byte, expected in lowercased(byte) == expected }
        }
    }

    /// `url_scheme_not_allowed` (422) unless `url` is allowed; `field` names it in the message.
    static func check(_ url: String, field: String) throws(ChatError) {
        guard !isAllowed(url) else { return }
        throw ChatError(.urlSchemeNotAllowed, "\(field) must be an http:, https: or mailto: URL")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
