#if canImport(ParleyNet)
import ParleyWire

/// Parses one HTTP/1.1 response from a byte stream: status line, header fields, and a body
/// framed by Content-Length, chunked transfer coding, or the end of the connection.
///
/// Sans-I/O: feed it bytes with ``receive(_:)`` and tell it about EOF with ``finish()``.
struct HTTPResponseParser: Sendable {
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

    /// Largest head accepted.
    static let headLimit = 64 * 1024
    private let bodyLimit: Int
    private let isHeadRequest: Bool
    private var state: State = .head
    private var buffer: [UInt8] = []
    private var status = 0
    private var isHTTP11 = false
    private var framedByEOF = false
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []

    init(bodyLimit: Int = 64 << 20, isHeadRequest: Bool = false) {
        self.bodyLimit = bodyLimit
        self.isHeadRequest = isHeadRequest
    }

    /// Consumes bytes; returns the response once it is complete.
    mutating func receive(_ bytes: some Collection<UInt8>) throws(ParleyError) -> HTTPResponseMessage? {
        buffer.append(contentsOf: bytes)
        return try advance()
    }

    /// Whether the connection can carry another request after the response just returned:
    /// HTTP/1.1, no `Connection: close`, a body not framed by EOF, and no bytes beyond it.
    var leavesConnectionReusable: Bool {
        guard case .done = state else { return false }
        return isHTTP11 && !framedByEOF && buffer.isEmpty && !headers.tokens("Connection").contains("close")
    }

    /// The peer closed: completes a body framed by EOF, fails anything unfinished.
    mutating func finish() throws(ParleyError) -> HTTPResponseMessage {
        if case .untilEOF = state {
            body.append(contentsOf: buffer)
            buffer = []
            framedByEOF = true
            state = .done
            return HTTPResponseMessage(status: status, headers: headers, body: body)
        }
        throw ParleyError(.network, "connection closed before the response was complete")
    }

    private mutating func advance() throws(ParleyError) -> HTTPResponseMessage? {
        var cursor = 0
        defer { if cursor > 0 { buffer.removeFirst(cursor) } }
        while true {
            switch state {
            case .head:
                guard let end = Self.find(crlfcrlf: buffer, from: cursor) else {
                    if buffer.count - cursor > Self.headLimit { throw ParleyError(.network, "response head too large") }
                    return nil
                }
                try parseHead(buffer[cursor..<(end - 4)])
                cursor = end
                if status == 100 { resetHead(); continue }
                state = try bodyState()
            case .fixed(let remaining):
                let take = min(remaining, buffer.count - cursor)
                body.append(contentsOf: buffer[cursor..<(cursor + take)])
                cursor += take
                if remaining - take > 0 { state = .fixed(remaining: remaining - take); return nil }
                state = .done
            case .chunkSize:
                guard let lineEnd = Self.find(crlf: buffer, from: cursor) else { return nil }
                let line = buffer[cursor..<(lineEnd - 2)]
                let digits = line.prefix { $0 != UInt8(ascii: ";") }
                guard let size = Int(String(decoding: digits, as: UTF8.self).trimmingSpaces(), radix: 16), size >= 0 else {
                    throw ParleyError(.network, "malformed chunk size")
                }
                cursor = lineEnd
                guard body.count + size <= bodyLimit else { throw ParleyError(.network, "response body too large") }
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, buffer.count - cursor)
                body.append(contentsOf: buffer[cursor..<(cursor + take)])
                cursor += take
                if remaining - take > 0 { state = .chunkData(remaining: remaining - take); return nil }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard buffer.count - cursor >= 2 else { return nil }
                cursor += 2
                state = .chunkSize
            case .trailers:
                guard let lineEnd = Self.find(crlf: buffer, from: cursor) else { return nil }
                let empty = lineEnd - cursor == 2
                cursor = lineEnd
                if empty { state = .done }
            case .untilEOF:
                guard body.count + buffer.count - cursor <= bodyLimit else { throw ParleyError(.network, "response body too large") }
                body.append(contentsOf: buffer[cursor...])
                cursor = buffer.count
                return nil
            case .done:
                return HTTPResponseMessage(status: status, headers: headers, body: body)
            }
        }
    }

    private mutating func resetHead() {
        status = 0
        isHTTP11 = false
        headers = HTTPHeaders()
        state = .head
    }

    private func bodyState() throws(ParleyError) -> State {
        if isHeadRequest || status == 204 || status == 304 || (100..<200).contains(status) { return .done }
        if headers.tokens("Transfer-Encoding").contains(where: { $0.lowercased() == "chunked" }) { return .chunkSize }
        if let text = headers.first("Content-Length") {
            guard let length = Int(text), length >= 0 else { throw ParleyError(.network, "malformed Content-Length") }
            guard length <= bodyLimit else { throw ParleyError(.network, "response body too large") }
            return length == 0 ? .done : .fixed(remaining: length)
        }
        return .untilEOF
    }

    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) throws(ParleyError) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { $0.last == 13 ? $0.dropLast() : $0 }
        guard !lines.isEmpty else { throw ParleyError(.network, "empty response head") }
        let statusLine = lines.removeFirst()
        let fields = statusLine.split(separator: 32, maxSplits: 2)
        guard fields.count >= 2, fields[0].starts(with: Array("HTTP/1.".utf8)),
              fields[1].count == 3, let code = Int(String(decoding: fields[1], as: UTF8.self)) else {
            throw ParleyError(.network, "malformed status line")
        }
        status = code
        isHTTP11 = fields[0].elementsEqual("HTTP/1.1".utf8)
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: 58) else { throw ParleyError(.network, "malformed header line") }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
            headers.add(name, value)
        }
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

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[start...end])
    }
}
#endif
