/// Reads the server's HTTP response head during a client handshake, byte stream in.
///
/// Only what the handshake needs: status line and header fields up to the blank line,
/// at most `limit` bytes. Bytes after the head (frames the server sent at once) are
/// handed back untouched.
struct WebSocketResponseHeadReader: Sendable {
    private var buffer: [UInt8] = []
    /// Largest head accepted.
    static let limit = 16 * 1024

    /// The head once complete, with whatever followed it.
    mutating func receive(_ bytes: UnsafeRawBufferPointer) throws(WebSocketHandshakeError)
        -> (head: HTTPResponseHead, remaining: [UInt8])? {
        let searchFrom = max(0, buffer.count - 3)
        buffer.append(contentsOf: bytes)
        guard let end = Self.endOfHead(buffer, from: searchFrom) else {
            if buffer.count > Self.limit { throw .init(.responseTooLarge, "response head over \(Self.limit) bytes") }
            return nil
        }
        guard end <= Self.limit else { throw .init(.responseTooLarge, "response head over \(Self.limit) bytes") }
        let head = try Self.parse(buffer[..<(end - 4)])
        let remaining = Array(buffer[end...])
        buffer = []
        return (head, remaining)
    }

    /// The index just past the first CRLFCRLF at or after `start`.
    private static func endOfHead(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 4 <= bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    private static func parse(_ bytes: ArraySlice<UInt8>) throws(WebSocketHandshakeError) -> HTTPResponseHead {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        guard let statusLine = lines.first else { throw .init(.malformedResponse, "empty response") }
        var head = try parseStatusLine(statusLine)
        for line in lines.dropFirst() {
            guard let first = line.first, first != 32, first != 9, let colon = line.firstIndex(of: 58) else {
                throw .init(.malformedResponse, "malformed header line")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw .init(.malformedResponse, "malformed header name")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingASCIIWhitespace()
            head.headers.add(name, value)
        }
        return head
    }

    private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(WebSocketHandshakeError) -> HTTPResponseHead {
        let parts = line.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].elementsEqual("HTTP/1.1".utf8) || parts[0].elementsEqual("HTTP/1.0".utf8),
              parts[1].count == 3, parts[1].allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let code = Int(String(decoding: parts[1], as: UTF8.self)) else {
            throw .init(.malformedResponse, "malformed status line")
        }
        let minor = parts[0].last == UInt8(ascii: "1") ? 1 : 0
        let reason = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
        return HTTPResponseHead(status: HTTPStatus(code, reason), version: HTTPVersion(major: 1, minor: minor))
    }
}
