/// Wire form of handshake heads, and the Sec-WebSocket-Accept computation.
public enum WebSocketHandshakeEncoding {
    /// The GUID RFC 6455 §1.3 appends to the key before hashing.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)).
    public static func acceptValue(for key: String) -> String {
        Base64.encode(Digest.sha1(Array((key + guid).utf8)))
    }

    /// The bytes of a response head, ending with the blank line.
    public static func bytes(of head: HTTPResponseHead) -> [UInt8] {
        var text = "\(head.version) \(head.status.code) \(clean(head.status.reason))\r\n"
        appendHeaders(head.headers, to: &text)
        return Array(text.utf8)
    }

    /// The bytes of a request head, ending with the blank line.
    public static func bytes(of head: HTTPRequestHead) -> [UInt8] {
        var text = "\(clean(head.method.rawValue)) \(clean(head.target)) \(head.version)\r\n"
        appendHeaders(head.headers, to: &text)
        return Array(text.utf8)
    }

    private static func appendHeaders(_ headers: HTTPHeaders, to text: inout String) {
        for field in headers { text += "\(clean(field.name)): \(clean(field.value))\r\n" }
        text += "\r\n"
    }

    /// Replaces CR and LF so an application-supplied value cannot inject header lines.
    private static func clean(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 13 || $0 == 10 }) else { return value }
        return String(value.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
    }

    /// Splits a comma-separated header list, trimming whitespace but keeping case
    /// (subprotocol names are case-sensitive).
    static func list(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
    }
}
