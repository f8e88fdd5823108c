/// Signing and verification of Pusher HTTP API requests (spec section 7).
///
/// The signed string is `METHOD\nPATH\nQUERY`, QUERY being every parameter except
/// `auth_signature`, keys lowercased, sorted, joined `k=v` with `&`.
public enum PusherRequestSignature {
    /// How far (seconds) `auth_timestamp` may be from the server clock.
    public static let timestampWindow: Int64 = 600

    /// Why a request's signature is refused. Every case maps to HTTP 401 except `missingKey`
    /// and `malformed`, which are 400 in spirit but reported as 401 too, as Pusher does.
    public enum Failure: Error, Sendable, Equatable {
        /// A required auth parameter is missing.
        case missingParameter(String)
        /// `auth_version` is not `1.0`.
        case unsupportedVersion
        /// `auth_timestamp` is not a number or is more than the window off.
        case staleTimestamp
        /// `body_md5` does not match the body (or is missing for a non-empty body).
        case bodyMD5Mismatch
        /// The signature does not match.
        case badSignature

        /// A human-readable explanation for the error body.
        public var message: String {
            switch self {
            case .missingParameter(let name): "Missing \(name) parameter"
            case .unsupportedVersion: "Unsupported auth_version (expected 1.0)"
            case .staleTimestamp: "Timestamp expired: auth_timestamp must be within 600 s of the server time"
            case .bodyMD5Mismatch: "body_md5 does not match the request body"
            case .badSignature: "Invalid signature: check your app secret and the signed string"
            }
        }
    }

    /// The canonical query string over the given parameters, using raw or decoded values.
    public static func canonicalQuery(_ query: PusherQuery, rawValues: Bool) -> String {
        var bytes: [UInt8] = []
        appendCanonicalQuery(query, rawValues: rawValues, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The string to sign for a request.
    public static func stringToSign(method: String, path: String, canonicalQuery: String) -> String {
        "\(method)\n\(path)\n\(canonicalQuery)"
    }

    /// The hex signature of a request whose query holds decoded values.
    public static func sign(secret: String, method: String, path: String, query: PusherQuery) -> String {
        let text = stringToSign(method: method, path: path, canonicalQuery: canonicalQuery(query, rawValues: false))
        return PusherSignature.hmacHex(secret: secret, Array(text.utf8))
    }

    /// Lowercase hex MD5 of a body.
    public static func bodyMD5(_ body: [UInt8]) -> String { Digest.md5(body).hexString }

    /// Checks a request's auth parameters: version, timestamp window, body MD5 and signature.
    /// The signature is accepted over decoded values (what the libraries sign) or over the
    /// values exactly as received.
    public static func verify(method: String, path: String, query: PusherQuery, body: [UInt8], secret: String, now: Int64) -> Failure? {
        verify(method: method, path: path, query: query, body: .some(body), secret: secret, now: now)
    }

    /// Checks everything a request's head can show — parameters, version, timestamp window and
    /// signature (which covers `body_md5`, so a forged head is refused before its body is read).
    /// The body's MD5 is left to ``verify(method:path:query:body:secret:now:)`` once it is here.
    public static func verifyHead(method: String, path: String, query: PusherQuery, secret: String, now: Int64) -> Failure? {
        verify(method: method, path: path, query: query, body: nil, secret: secret, now: now)
    }

    /// Both checks; a nil body skips the MD5 (head only).
    private static func verify(method: String, path: String, query: PusherQuery, body: [UInt8]?, secret: String, now: Int64) -> Failure? {
        guard let signature = query["auth_signature"] else { return .missingParameter("auth_signature") }
        guard query["auth_key"] != nil else { return .missingParameter("auth_key") }
        guard let timestampText = query["auth_timestamp"] else { return .missingParameter("auth_timestamp") }
        guard let version = query["auth_version"] else { return .missingParameter("auth_version") }
        guard version == "1.0" else { return .unsupportedVersion }
        guard let timestamp = Int64(timestampText), abs(timestamp - now) <= timestampWindow else { return .staleTimestamp }
        if let body {
            if let md5 = query["body_md5"] {
                guard Digest.constantTimeEqual(asciiLowercased(md5), lowercaseHex(Digest.md5(body))) else { return .bodyMD5Mismatch }
            } else if !body.isEmpty {
                return .bodyMD5Mismatch
            }
        }
        // Every request is checked here: the signed string is built once into one byte buffer
        // (no String concatenation, no hex String), and the received-values variant only when
        // some value was actually percent-decoded.
        let given = asciiLowercased(signature)
        let key = Array(secret.utf8)
        var message: [UInt8] = []
        message.reserveCapacity(method.utf8.count + path.utf8.count + 256)
        for rawValues in [false, true] {
            if rawValues && !query.parameters.contains(where: { $0.rawValue != $0.value }) { break }
            message.removeAll(keepingCapacity: true)
            message.append(contentsOf: method.utf8)
            message.append(UInt8(ascii: "\n"))
            message.append(contentsOf: path.utf8)
            message.append(UInt8(ascii: "\n"))
            appendCanonicalQuery(query, rawValues: rawValues, to: &message)
            if Digest.constantTimeEqual(given, lowercaseHex(Digest.hmacSHA256(key: key, message))) { return nil }
        }
        return .badSignature
    }

    /// Appends the canonical query (keys lowercased, sorted by key then value, `k=v` joined by `&`).
    private static func appendCanonicalQuery(_ query: PusherQuery, rawValues: Bool, to bytes: inout [UInt8]) {
        var pairs: [(key: String, value: String)] = []
        pairs.reserveCapacity(query.parameters.count)
        for parameter in query.parameters where parameter.key != "auth_signature" {
            pairs.append((key: lowercasedKey(parameter.key), value: rawValues ? parameter.rawValue : parameter.value))
        }
        pairs.sort { a, b in a.key == b.key ? a.value < b.value : a.key < b.key }
        for (i, pair) in pairs.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: "&")) }
            bytes.append(contentsOf: pair.key.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes.append(contentsOf: pair.value.utf8)
        }
    }

    /// `key.lowercased()`, without building a new String for keys that are lowercase already
    /// (all of them, in practice).
    private static func lowercasedKey(_ key: String) -> String {
        key.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 }) ? key.lowercased() : key
    }

    /// The UTF-8 bytes with ASCII letters lowercased. Compared against lowercase hex only, where
    /// full Unicode lowercasing could not turn a mismatch into a match (no non-ASCII character
    /// lowercases to a hex digit).
    static func asciiLowercased(_ text: String) -> [UInt8] {
        text.utf8.asciiLowercased()
    }

    /// Lowercase hex of the bytes, as bytes.
    static func lowercaseHex(_ bytes: [UInt8]) -> [UInt8] {
        let digits: StaticString = "0123456789abcdef"
        var out = [UInt8](repeating: 0, count: bytes.count * 2)
        digits.withUTF8Buffer { d in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = d[Int(b >> 4)]
                out[2 * i + 1] = d[Int(b & 0xF)]
            }
        }
        return out
    }
}
