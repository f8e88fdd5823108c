/// An incremental, Sans-I/O HTTP/1.1 response parser: status line, header fields, and a
/// body framed by Content-Length, chunked transfer coding, or the end of the connection.
///
/// Feed it the connection's bytes with ``receive(_:)`` until it returns the response, and
/// tell it about the peer's EOF with ``finish()``. Interim answers (100, 102, 103) are
/// skipped; a `101 Switching Protocols` completes at its head, and the bytes after it (the
/// upgraded protocol's first ones) are handed back by ``takeUnparsedBytes()``. Every read is
/// bounded: the head and each chunk or trailer line by `headLimit`, the body by `bodyLimit`.
public struct HTTPResponseParser: Sendable {
    private enum State: Sendable {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilEOF
        case done
    }

    /// Largest head accepted (status line and fields), and longest chunk or trailer line.
    public let headLimit: Int
    /// Largest body accepted.
    public let bodyLimit: Int
    /// No body follows the head, whatever it says: the answer to a HEAD, or a head read alone.
    private let stopsAfterHead: Bool
    private var state: State = .head
    private var buffer: [UInt8] = []
    private var head = HTTPResponseHead(status: HTTPStatus(0, ""))
    private var framedByEOF = false
    /// Bytes at the buffer's start already searched for the head's end (a head fed a byte at a time stays linear).
    private var headScanned = 0
    private var body: [UInt8] = []

    /// Creates a parser for the answer to one request; `isHeadRequest` when that was a HEAD
    /// (whose answer has no body whatever its Content-Length says).
    public init(bodyLimit: Int = 64 << 20, headLimit: Int = 64 * 1024, isHeadRequest: Bool = false) {
        self.bodyLimit = max(0, bodyLimit)
        self.headLimit = max(64, headLimit)
        stopsAfterHead = isHeadRequest
    }

    /// A parser that reads a head alone, at most `limit` bytes, and leaves what follows it to
    /// ``takeUnparsedBytes()`` (a WebSocket client's handshake, whatever the status).
    public static func headOnly(limit: Int) -> HTTPResponseParser {
        HTTPResponseParser(bodyLimit: 0, headLimit: limit, isHeadRequest: true)
    }

    /// Consumes bytes; returns the response once it is complete (and again on later calls).
    public mutating func receive(_ bytes: some Collection<UInt8>) throws(HTTPResponseParseError) -> HTTPClientResponse? {
        if case .done = state {
            buffer.append(contentsOf: bytes)
            return response
        }
        buffer.append(contentsOf: bytes)
        return try advance()
    }

    /// Consumes bytes from a read buffer.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTPResponseParseError) -> HTTPClientResponse? {
        try receive(bytes.bindMemory(to: UInt8.self))
    }

    /// The peer closed: completes a body framed by EOF, fails anything unfinished.
    public mutating func finish() throws(HTTPResponseParseError) -> HTTPClientResponse {
        switch state {
        case .done:
            return response
        case .untilEOF:
            framedByEOF = true
            state = .done
            return response
        default:
            throw HTTPResponseParseError(.truncated, "connection closed before the response was complete")
        }
    }

    /// Whether the response is complete.
    public var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Whether the connection can carry another request after the complete response:
    /// HTTP/1.1, no `Connection: close`, not an upgrade, a body not framed by EOF, and no
    /// bytes beyond it.
    public var leavesConnectionReusable: Bool {
        guard case .done = state else { return false }
        return head.version.minor >= 1 && head.status.code != 101 && !framedByEOF && buffer.isEmpty
            && !head.headers.tokens("Connection").contains("close")
    }

    /// The bytes received after the complete response (an upgraded protocol's first bytes),
    /// removed from the parser.
    public mutating func takeUnparsedBytes() -> [UInt8] {
        guard case .done = state else { return [] }
        defer { buffer = [] }
        return buffer
    }

    private var response: HTTPClientResponse { HTTPClientResponse(head: head, body: body) }

    private mutating func advance() throws(HTTPResponseParseError) -> HTTPClientResponse? {
        var cursor = 0
        defer { if cursor > 0 { buffer.removeFirst(cursor) } }
        while true {
            switch state {
            case .head:
                guard let end = Self.find(crlfcrlf: buffer, from: max(cursor, cursor + headScanned - 3)) else {
                    try checkLine(buffer.count - cursor, "response head")
                    headScanned = buffer.count - cursor
                    return nil
                }
                headScanned = 0
                try checkLine(end - cursor, "response head")
                head = try Self.parseHead(buffer[cursor..<(end - 4)])
                cursor = end
                if [100, 102, 103].contains(head.status.code) { continue }
                state = try bodyState()
            case .fixed(let remaining):
                let take = min(remaining, buffer.count - cursor)
                body.append(contentsOf: buffer[cursor..<(cursor + take)])
                cursor += take
                if remaining > take { state = .fixed(remaining: remaining - take); return nil }
                state = .done
            case .chunkSize:
                guard let lineEnd = Self.find(crlf: buffer, from: cursor) else {
                    try checkLine(buffer.count - cursor, "chunk-size line")
                    return nil
                }
                try checkLine(lineEnd - cursor, "chunk-size line")
                let size = try Self.chunkSize(buffer[cursor..<(lineEnd - 2)])
                cursor = lineEnd
                guard size <= bodyLimit - body.count else {
                    throw HTTPResponseParseError(.bodyTooLarge, "response body over \(bodyLimit) bytes")
                }
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, buffer.count - cursor)
                body.append(contentsOf: buffer[cursor..<(cursor + take)])
                cursor += take
                if remaining > take { state = .chunkData(remaining: remaining - take); return nil }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard buffer.count - cursor >= 2 else { return nil }
                guard buffer[cursor] == 13, buffer[cursor + 1] == 10 else {
                    throw HTTPResponseParseError(.malformedChunk, "chunk data not followed by CRLF")
                }
                cursor += 2
                state = .chunkSize
            case .trailers:
                guard let lineEnd = Self.find(crlf: buffer, from: cursor) else {
                    try checkLine(buffer.count - cursor, "trailer line")
                    return nil
                }
                try checkLine(lineEnd - cursor, "trailer line")
                let empty = lineEnd - cursor == 2
                cursor = lineEnd
                if empty { state = .done }
            case .untilEOF:
                guard buffer.count - cursor <= bodyLimit - body.count else {
                    throw HTTPResponseParseError(.bodyTooLarge, "response body over \(bodyLimit) bytes")
                }
                body.append(contentsOf: buffer[cursor...])
                cursor = buffer.count
                return nil
            case .done:
                return response
            }
        }
    }

    private func checkLine(_ length: Int, _ what: String) throws(HTTPResponseParseError) {
        guard length <= headLimit else { throw HTTPResponseParseError(.headTooLarge, "\(what) over \(headLimit) bytes") }
    }

    /// What follows the head (RFC 9112 §6.3): nothing for HEAD, 1xx, 204 and 304; chunks;
    /// Content-Length bytes; or everything until the peer closes.
    private func bodyState() throws(HTTPResponseParseError) -> State {
        let status = head.status.code
        if stopsAfterHead || status == 204 || status == 304 || (100..<200).contains(status) { return .done }
        if head.headers.tokens("Transfer-Encoding").contains(where: { $0.lowercased() == "chunked" }) { return .chunkSize }
        let lengths = head.headers.values(for: "Content-Length")
        guard let text = lengths.first else { return .untilEOF }
        guard lengths.allSatisfy({ $0 == text }), !text.isEmpty, text.utf8.count <= 18,
            text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(text)
        else {
            throw HTTPResponseParseError(.invalidContentLength, "Content-Length is not one decimal number")
        }
        guard length <= bodyLimit else { throw HTTPResponseParseError(.bodyTooLarge, "response body over \(bodyLimit) bytes") }
        return length == 0 ? .done : .fixed(remaining: length)
    }

    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPResponseParseError) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }
        guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits.reversed(), as: UTF8.self), radix: 16),
            size >= 0
        else {
            throw HTTPResponseParseError(.malformedChunk, "malformed chunk size")
        }
        return size
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPResponseParseError) -> HTTPResponseHead {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { $0.last == 13 ? $0.dropLast() : $0 }
        guard let statusLine = lines.first else { throw HTTPResponseParseError(.malformedStatusLine, "empty response head") }
        var head = try parseStatusLine(statusLine)
        for line in lines.dropFirst() {
            guard let first = line.first, first != 32, first != 9, let colon = line.firstIndex(of: 58) else {
                throw HTTPResponseParseError(.malformedHeader, "malformed header line")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw HTTPResponseParseError(.malformedHeader, "malformed header name")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingASCIIWhitespace()
            head.headers.add(String(decoding: name, as: UTF8.self), value)
        }
        return head
    }

    /// `HTTP/1.x NNN [reason]`, the status from 100 up (a leading zero is no status class).
    private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HTTPResponseParseError) -> HTTPResponseHead {
        let parts = line.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].count == 8, parts[0].starts(with: "HTTP/1.".utf8),
            let minorDigit = parts[0].last, minorDigit >= 48, minorDigit <= 57,
            parts[1].count == 3, parts[1].allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let code = Int(String(decoding: parts[1], as: UTF8.self)), code >= 100
        else {
            throw HTTPResponseParseError(.malformedStatusLine, "malformed status line")
        }
        let reason = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
        return HTTPResponseHead(status: HTTPStatus(code, reason), version: HTTPVersion(major: 1, minor: Int(minorDigit - 48)))
    }

    private static func find(crlfcrlf bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 4 <= bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    private static func find(crlf bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 2 <= bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index + 2 }
            index += 1
        }
        return nil
    }
}
