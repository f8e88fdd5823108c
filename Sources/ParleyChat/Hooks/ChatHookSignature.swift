import ParleyWire

/// How chat hook requests are signed (docs/webhooks.md): HMAC-SHA256 with the app's signing
/// secret over `{timestamp}.{body}`, so a receiver that checks the timestamp's age rejects a
/// replayed request as well as a forged one.
public enum ChatHookSignature {
    /// Unix seconds when the request was signed.
    public static let timestampHeader = "X-Parley-Timestamp"
    /// `v1=` and the lowercase hex HMAC-SHA256 of `{timestamp}.{body}`.
    public static let signatureHeader = "X-Parley-Signature"
    /// The app key, so one endpoint can serve several apps.
    public static let keyHeader = "X-Parley-Key"

    /// The signature header's value for a body signed at `timestamp` (Unix seconds).
    public static func sign(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        var message = Array(String(timestamp).utf8)
        message.append(UInt8(ascii: "."))
        message += body
        return "v1=" + hex(Digest.hmacSHA256(key: Array(secret.utf8), message))
    }

    /// The headers of a signed chat hook POST.
    static func headers(key: String, secret: String, timestamp: Int64, body: [UInt8]) -> [(String, String)] {
        [
            ("Content-Type", "application/json"),
            (keyHeader, key),
            (timestampHeader, String(timestamp)),
            (signatureHeader, sign(secret: secret, timestamp: timestamp, body: body))
        ]
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
