import ParleyWireCore

/// The few claims of a JWT the client reads (it never verifies: that is the server's job).
public struct JWTClaims: Sendable, Equatable {
    /// `sub`: the user id.
    public var subject: String?
    /// `aud`: the app id.
    public var audience: String?
    /// `exp`: seconds since the Unix epoch.
    public var expiresAt: Int64?

    /// Reads the payload of a compact JWT; nil when it is not one.
    public init?(token: String) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Self.base64URLDecode(segments[1]) else { return nil }
        let object: JSONObject
        do {
            guard let parsed = try JSONParser.parse(payload).objectValue else { return nil }
            object = parsed
        } catch {
            return nil  // an opaque token, not a JWT: documented as nil, the server still judges it
        }
        subject = object["sub"]?.stringValue
        audience = object["aud"]?.stringValue ?? object["aud"]?.arrayValue?.first?.stringValue
        if case .number(let text)? = object["exp"] { expiresAt = Int64(text) ?? Double(text).map { Int64($0) } }
    }

    static func base64URLDecode(_ text: Substring) -> [UInt8]? {
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Base64Text.decode(standard)
    }
}
