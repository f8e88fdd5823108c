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
        var pairs: [(key: String, value: String)] = []
        for parameter in query.parameters where parameter.key != "auth_signature" {
            pairs.append((key: parameter.key.lowercased(), value: rawValues ? parameter.rawValue : parameter.value))
        }
        pairs.sort { a, b in a.key == b.key ? a.value < b.value : a.key < b.key }
        var text = ""
        for (i, pair) in pairs.enumerated() {
            if i > 0 { text += "&" }
            text += pair.key + "=" + pair.value
        }
        return text
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
        guard let signature = query["auth_signature"] else { return .missingParameter("auth_signature") }
        guard query["auth_key"] != nil else { return .missingParameter("auth_key") }
        guard let timestampText = query["auth_timestamp"] else { return .missingParameter("auth_timestamp") }
        guard let version = query["auth_version"] else { return .missingParameter("auth_version") }
        guard version == "1.0" else { return .unsupportedVersion }
        guard let timestamp = Int64(timestampText), abs(timestamp - now) <= timestampWindow else { return .staleTimestamp }
        if let md5 = query["body_md5"] {
            guard Digest.constantTimeEqual(Array(md5.lowercased().utf8), Array(bodyMD5(body).utf8)) else { return .bodyMD5Mismatch }
        } else if !body.isEmpty {
            return .bodyMD5Mismatch
        }
        let given = Array(signature.lowercased().utf8)
        for rawValues in [false, true] {
            let text = stringToSign(method: method, path: path, canonicalQuery: canonicalQuery(query, rawValues: rawValues))
            if Digest.constantTimeEqual(given, Array(PusherSignature.hmacHex(secret: secret, Array(text.utf8)).utf8)) { return nil }
        }
        return .badSignature
    }
}
