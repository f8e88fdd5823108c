import ParleyWire

/// Signs and checks short-lived attachment download URLs, usable without headers (image views).
///
/// The URL is `/v1/attachments/{id}/content?app={app}&expires={unix seconds}&signature={sig}`,
/// where `sig` is base64url(HMAC-SHA256(app secret, "download\n{app}\n{id}\n{expires}")).
struct DownloadSigner: Sendable {
    /// The signed path and query of an attachment's download URL.
    static func url(app: String, secret: String, attachment: String, expires: Int64) -> String {
        let signature = sign(app: app, secret: secret, attachment: attachment, expires: expires)
        return "/v1/attachments/\(percentEncode(attachment))/content?app=\(percentEncode(app))&expires=\(expires)&signature=\(signature)"
    }

    /// Checks a URL's signature and expiry (`now` in seconds); throws the 401 that refuses it.
    static func verify(app: String, secrets: [String], attachment: String, expires: String, signature: String, now: Int64) throws(ChatError)
    {
        guard let expiry = Int64(expires) else { throw ChatError(.urlSignatureInvalid, "expires must be a number") }
        let given = Array(signature.utf8)
        guard
            secrets.contains(where: {
                Digest.constantTimeEqual(given, Array(sign(app: app, secret: $0, attachment: attachment, expires: expiry).utf8))
            })
        else {
            throw ChatError(.urlSignatureInvalid, "the download URL's signature does not match")
        }
        guard now <= expiry else { throw ChatError(.urlExpired, "the download URL has expired") }
    }

    private static func sign(app: String, secret: String, attachment: String, expires: Int64) -> String {
        let message = "download\n\(app)\n\(attachment)\n\(expires)"
        return Base64URL.encode(Digest.hmacSHA256(key: Array(secret.utf8), Array(message.utf8)))
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
