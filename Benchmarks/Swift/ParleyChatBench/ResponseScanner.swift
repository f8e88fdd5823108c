/// Finds complete HTTP/1.1 responses in the bytes of one connection, value-typed and I/O-free.
///
/// Only what a benchmark client needs: the status code, the body framed by `Content-Length`,
/// and whether the server will close the connection. Chunked bodies are refused (Parley's
/// JSON answers always carry a length); bodies are copied out only when asked for.
struct ResponseScanner {
    /// One response taken off the stream.
    struct Response {
        /// The status code.
        var status: Int
        /// The body, when the caller asked to keep it.
        var body: [UInt8]?
        /// Whether the server said `Connection: close`.
        var closes: Bool
    }

    /// The head of a response whose body is still arriving: offsets relative to `start`.
    private struct PendingHead {
        var status: Int
        var bodyOffset: Int
        var bodyLength: Int
        var closes: Bool
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var searchFrom = 0
    private var pending: PendingHead?

    /// The largest response head accepted.
    static let maxHeadBytes = 16 * 1024

    /// Whether bytes of an unfinished response are buffered.
    var hasPartialResponse: Bool { start < buffer.count }

    /// Appends bytes read from the socket.
    mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            searchFrom = 0
        } else if start >= 64 * 1024 {
            buffer.removeFirst(start)
            searchFrom -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete response, or nil until more bytes arrive.
    mutating func next(keepBody: Bool) throws(BenchError) -> Response? {
        if pending == nil {
            guard let head = try scanHead() else { return nil }
            pending = head
        }
        guard let head = pending else { return nil }
        let bodyStart = start + head.bodyOffset
        guard buffer.count - bodyStart >= head.bodyLength else { return nil }
        let body = keepBody ? Array(buffer[bodyStart..<(bodyStart + head.bodyLength)]) : nil
        start = bodyStart + head.bodyLength
        searchFrom = start
        pending = nil
        return Response(status: head.status, body: body, closes: head.closes)
    }

    /// Looks for the blank line ending the head and parses the head once it is complete.
    private mutating func scanHead() throws(BenchError) -> PendingHead? {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var index = max(searchFrom, start)
        var headEnd: Int?
        while index + 3 < buffer.count {
            if buffer[index + 3] != lf { index += buffer[index + 3] == cr ? 1 : 4; continue }
            if buffer[index] == cr && buffer[index + 1] == lf && buffer[index + 2] == cr { headEnd = index; break }
            index += 1
        }
        guard let headEnd else {
            searchFrom = max(start, buffer.count - 3)
            if buffer.count - start > Self.maxHeadBytes { throw BenchError("protocol", "response head over \(Self.maxHeadBytes) bytes") }
            return nil
        }
        return try parseHead(headEnd: headEnd)
    }

    private func parseHead(headEnd: Int) throws(BenchError) -> PendingHead {
        let head = buffer[start..<headEnd]
        guard head.count >= 12, head.starts(with: "HTTP/1.".utf8),
            let status = Self.digits(buffer[(start + 9)..<(start + 12)])
        else {
            throw BenchError("protocol", "not an HTTP/1.x status line: \(String(decoding: head.prefix(40), as: UTF8.self))")
        }
        var length = 0
        var closes = false
        for line in head.split(separator: UInt8(ascii: "\n")).dropFirst() {
            let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if Self.hasName(text, "content-length:") {
                guard let value = Self.digits(Self.trimmed(text.dropFirst(15))) else {
                    throw BenchError("protocol", "bad Content-Length")
                }
                length = value
            } else if Self.hasName(text, "transfer-encoding:") {
                throw BenchError("protocol", "chunked responses are not supported by the benchmark client")
            } else if Self.hasName(text, "connection:") {
                closes = Self.trimmed(text.dropFirst(11)).lazy.map { $0 | 0x20 }.elementsEqual("close".utf8)
            }
        }
        return PendingHead(status: status, bodyOffset: headEnd + 4 - start, bodyLength: length, closes: closes)
    }

    /// Whether a header line starts with `name` (lowercase, with the colon), ignoring case.
    private static func hasName(_ line: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard line.count >= count else { return false }
        return name.withUTF8Buffer { expected in
            zip(line.prefix(count), expected).allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice = slice.dropLast() }
        return slice
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 12 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
