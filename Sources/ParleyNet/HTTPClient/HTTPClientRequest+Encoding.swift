import ParleyWire

extension HTTPClientRequest {
    /// The request for the wire: request line, Host, the caller's fields, Content-Length, and
    /// `Connection: close` unless the connection is to be kept alive (HTTP/1.1's default).
    func encoded(for url: WebSocketURL, keepAlive: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + body.count)
        append(&out, method + " " + url.target + " HTTP/1.1\r\n")
        append(&out, "Host: " + url.hostHeader + "\r\n")
        for field in headers where !Self.isManaged(field.name) {
            append(&out, field.name + ": " + field.value + "\r\n")
        }
        append(&out, "Content-Length: \(body.count)\r\n" + (keepAlive ? "\r\n" : "Connection: close\r\n\r\n"))
        out.append(contentsOf: body)
        return out
    }

    private static func isManaged(_ name: String) -> Bool {
        ["host", "content-length", "connection", "transfer-encoding"].contains(name.lowercased())
    }

    private func append(_ out: inout [UInt8], _ text: String) { out.append(contentsOf: text.utf8) }

    /// Parses an `http://` or `https://` URL with the WebSocket URL parser (same authority
    /// rules; `https` comes back with ``WebSocketURL/isSecure`` set and port 443 by default).
    static func parseURL(_ url: String) -> WebSocketURL? {
        let lowered = url.lowercased()
        if lowered.hasPrefix("http://") { return WebSocketURL("ws://" + url.dropFirst(7)) }
        if lowered.hasPrefix("https://") { return WebSocketURL("wss://" + url.dropFirst(8)) }
        return nil
    }
}
