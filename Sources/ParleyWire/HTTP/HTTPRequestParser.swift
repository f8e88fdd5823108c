/// An incremental, Sans-I/O HTTP/1.1 request parser.
///
/// Feed it whatever bytes arrive with `receive(_:)`, then call `nextEvent()` until it
/// returns nil (it needs more input). A request yields `.head`, zero or more `.body`
/// pieces and `.end`; the next pipelined request follows in the same buffer. A problem
/// yields one `.error` carrying the status to answer; after that the parser is finished
/// (answer, then close the connection).
///
/// Wire rules, decided here once for the whole server:
/// - Line endings in the request line and header section are CRLF; a bare LF is also
///   accepted there (RFC 9112 §2.2), a bare CR never is. Chunk-size lines, chunk data and
///   trailers need strict CRLF, because lenient chunk framing is a known smuggling vector.
/// - Empty lines before a request line are skipped (RFC 9112 §2.2).
/// - HTTP/1.0 and HTTP/1.1 are accepted, HTTP/1.2–1.9 are read as HTTP/1.1
///   (RFC 9110 §6.2); any other well-formed version gets 505.
/// - Framing follows RFC 9112 §6: Transfer-Encoding must end in a single `chunked` and may
///   not come with Content-Length or in an HTTP/1.0 request; repeated Content-Length values
///   must agree; no length means no body.
/// - Trailer fields count against the same header byte and field budgets as the head.
///
/// Limits: request line → 414, header section bytes or field count → 431, body over
/// `maxBodySize` → 413. `maxBodySize` starts at `limits.maxBodySize` for each request and
/// may be changed after `.head` (for a route-specific limit) before calling `nextEvent()`
/// again: a Content-Length over it fails at once, a chunked body fails as soon as a chunk
/// would take it over.
///
/// `Expect: 100-continue`: after `.head`, set `maxBodySize` and call `nextEvent()`; an
/// `.error` means answer it instead of 100 Continue, nil or `.body` means send
/// `HTTPResponseWriter.continueResponse` and keep reading.
public struct HTTPRequestParser: Sendable {
    /// Size limits for one request.
    public struct Limits: Sendable, Equatable {
        /// The longest request line (without its line ending) accepted; longer → 414.
        public var maxRequestLineLength: Int
        /// The most bytes of header field lines (with their line endings) accepted; more → 431.
        public var maxHeaderBytes: Int
        /// The most header fields accepted; more → 431.
        public var maxHeaderCount: Int
        /// The default body size limit of each request; larger → 413.
        public var maxBodySize: Int
        /// The longest chunk-size line (size plus extensions) accepted; longer → 400.
        public var maxChunkLineLength: Int

        /// Creates limits; the defaults are 8 KiB, 32 KiB, 100 fields, 1 MiB and 4 KiB.
        public init(
            maxRequestLineLength: Int = 8192, maxHeaderBytes: Int = 32768, maxHeaderCount: Int = 100,
            maxBodySize: Int = 1 << 20, maxChunkLineLength: Int = 4096
        ) {
            self.maxRequestLineLength = maxRequestLineLength
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxBodySize = maxBodySize
            self.maxChunkLineLength = maxChunkLineLength
        }
    }

    /// Something the parser recognised in the input.
    public enum Event: Sendable, Equatable {
        /// The request line and header section of a new request.
        case head(HTTPRequestHead)
        /// A piece of the (de-chunked) body; a body may arrive in several pieces.
        case body(ArraySlice<UInt8>)
        /// The end of the request, with the trailer fields of a chunked body (else empty).
        case end(trailers: HTTPHeaders)
        /// The input is not an acceptable request; answer `status` and close.
        case error(HTTPParseError)
    }

    /// The limits this parser was created with.
    public let limits: Limits
    /// The body size limit of the current request; see the type's documentation.
    public var maxBodySize: Int

    /// Received bytes; `buffer[readIndex...]` is not parsed yet.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Where the search for the next LF resumes, so byte-by-byte input is scanned once.
    private var scanIndex = 0
    private var state: State = .requestLine
    private var requestLine: RequestLine?
    /// Header fields of the head being parsed, later the trailer fields.
    private var fields = HTTPHeaders()
    private var headerBytes = 0
    private var headerCount = 0
    private var framing: Framing = .none
    private var bodyBytesAnnounced = 0

    /// Capacity above which an emptied buffer is released rather than kept for reuse.
    private static let retainedCapacity = 64 * 1024
    /// Room made for a request's header fields at its first one: more than most clients send.
    private static let typicalFieldCount = 12

    private enum State: Sendable, Equatable {
        case requestLine
        case headers
        case bodyStart
        case fixedBody(remaining: Int)
        case bodyDone
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed
        case handedOff
    }

    enum Framing: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    struct RequestLine: Sendable {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
    }

    /// A complete line: `start..<end` is its content, `next` the index after its LF.
    private struct Line {
        var start: Int
        var end: Int
        var next: Int
        var endsWithCRLF: Bool
        var isEmpty: Bool { start == end }
        var length: Int { end - start }
        var lengthWithEnding: Int { next - start }
    }

    /// Creates a parser.
    public init(limits: Limits = Limits()) {
        self.limits = limits
        self.maxBodySize = limits.maxBodySize
    }

    /// Whether the parser has failed or handed its bytes off and will produce nothing more.
    public var isFinished: Bool { state == .failed || state == .handedOff }

    /// The number of received bytes not yet consumed by `nextEvent()`.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    // MARK: Input

    /// Appends received bytes. Ignored once the parser is finished.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !isFinished, !bytes.isEmpty else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes. Ignored once the parser is finished.
    public mutating func receive(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// Hands every byte not parsed yet to the next protocol (after an upgrade's `.head` or
    /// the `.end` that follows it) and finishes the parser: `nextEvent()` returns nil from now on.
    public mutating func takeUnparsedBytes() -> [UInt8] {
        let rest = Array(buffer[readIndex...])
        buffer = []
        readIndex = 0
        scanIndex = 0
        if state != .failed { state = .handedOff }
        return rest
    }

    // MARK: Events

    /// The next event, or nil when more input is needed (or the parser is finished).
    public mutating func nextEvent() -> Event? {
        let event = step()
        releaseConsumedBytes()
        return event
    }

    private mutating func step() -> Event? {
        while true {
            switch state {
            case .requestLine:
                guard let line = takeLine() else {
                    if pendingByteCount > limits.maxRequestLineLength + 1 {
                        return fail(.requestLineTooLong(limits.maxRequestLineLength))
                    }
                    return nil
                }
                if line.isEmpty { continue }
                if line.length > limits.maxRequestLineLength {
                    return fail(.requestLineTooLong(limits.maxRequestLineLength))
                }
                switch buffer.withUnsafeBufferPointer({ Self.parseRequestLine($0, line.start, line.end) }) {
                case .failure(let error): return fail(error)
                case .success(let parsed):
                    requestLine = parsed
                    state = .headers
                }

            case .headers, .trailers:
                guard let line = takeLine() else {
                    // The pending bytes may be a lone CR of the closing empty line, which is free.
                    if headerBytes + pendingByteCount > limits.maxHeaderBytes + 1 {
                        return fail(.headersTooLarge(limits.maxHeaderBytes))
                    }
                    return nil
                }
                // Limits are checked before syntax so that the same bytes give the same error
                // however they were split (a partial line can only be judged by its size).
                headerBytes += line.isEmpty ? 0 : line.lengthWithEnding
                if headerBytes > limits.maxHeaderBytes { return fail(.headersTooLarge(limits.maxHeaderBytes)) }
                let inTrailers = state == .trailers
                if inTrailers, !line.endsWithCRLF {
                    return fail(.badChunk("trailer lines must end in CRLF"))
                }
                if line.isEmpty {
                    return inTrailers ? finishMessage() : finishHead()
                }
                if let error = acceptFieldLine(line) { return fail(error) }

            case .bodyStart:
                if let event = startBody() { return event }

            case .fixedBody(let remaining):
                guard let piece = takeBodyBytes(upTo: remaining) else { return nil }
                state = piece.count == remaining ? .bodyDone : .fixedBody(remaining: remaining - piece.count)
                return .body(piece)

            case .bodyDone:
                return finishMessage()

            case .chunkSize:
                guard let line = takeLine() else {
                    if pendingByteCount > limits.maxChunkLineLength + 1 {
                        return fail(.badChunk("chunk-size line longer than \(limits.maxChunkLineLength) bytes"))
                    }
                    return nil
                }
                if let error = acceptChunkSizeLine(line) { return fail(error) }

            case .chunkData(let remaining):
                guard let piece = takeBodyBytes(upTo: remaining) else { return nil }
                state = piece.count == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - piece.count)
                return .body(piece)

            case .chunkDataEnd:
                let pending = pendingByteCount
                if pending >= 1, buffer[readIndex] != HTTPSyntax.cr {
                    return fail(.badChunk("chunk data not followed by CRLF"))
                }
                guard pending >= 2 else { return nil }
                guard buffer[readIndex + 1] == HTTPSyntax.lf else {
                    return fail(.badChunk("chunk data not followed by CRLF"))
                }
                consume(upTo: readIndex + 2)
                state = .chunkSize

            case .failed, .handedOff:
                return nil
            }
        }
    }

    // MARK: Head

    private mutating func acceptFieldLine(_ line: Line) -> HTTPParseError? {
        headerCount += 1
        if headerCount > limits.maxHeaderCount { return .tooManyHeaders(limits.maxHeaderCount) }
        let parsed = buffer.withUnsafeBufferPointer { Self.parseFieldLine($0, line.start, line.end) }
        switch parsed {
        case .failure(let error): return error
        case .success(let field):
            if fields.count == 0 { fields.reserveCapacity(Self.typicalFieldCount) }
            fields.add(field.name, field.value)
            return nil
        }
    }

    private mutating func finishHead() -> Event {
        guard let line = requestLine else { preconditionFailure("header section without a request line") }
        let head = HTTPRequestHead(method: line.method, target: line.target, version: line.version, headers: fields)
        fields = HTTPHeaders()
        requestLine = nil
        if let error = Self.hostError(head) { return fail(error) }
        switch Self.framing(of: head) {
        case .failure(let error): return fail(error)
        case .success(let framing): self.framing = framing
        }
        state = .bodyStart
        return .head(head)
    }

    // MARK: Body

    /// Decides the body once the server had its chance to change `maxBodySize`; returns an
    /// event only when the request ends or fails here, else parsing goes on in the new state.
    private mutating func startBody() -> Event? {
        switch framing {
        case .none:
            return finishMessage()
        case .length(let length):
            if length > maxBodySize { return fail(.bodyTooLarge(maxBodySize)) }
            state = length == 0 ? .bodyDone : .fixedBody(remaining: length)
            return nil
        case .chunked:
            state = .chunkSize
            return nil
        }
    }

    private mutating func acceptChunkSizeLine(_ line: Line) -> HTTPParseError? {
        if line.length > limits.maxChunkLineLength {
            return .badChunk("chunk-size line longer than \(limits.maxChunkLineLength) bytes")
        }
        guard line.endsWithCRLF else { return .badChunk("chunk-size line must end in CRLF") }
        let parsed = buffer.withUnsafeBufferPointer { Self.parseChunkSize($0, line.start, line.end) }
        switch parsed {
        case .failure(let error):
            return error
        case .success(0):
            state = .trailers
        case .success(let size):
            if size > maxBodySize - bodyBytesAnnounced { return .bodyTooLarge(maxBodySize) }
            bodyBytesAnnounced += size
            state = .chunkData(remaining: size)
        }
        return nil
    }

    /// Up to `limit` buffered body bytes as a fresh, zero-based slice; nil when none are buffered.
    private mutating func takeBodyBytes(upTo limit: Int) -> ArraySlice<UInt8>? {
        let count = min(limit, pendingByteCount)
        guard count > 0 else { return nil }
        let piece = ArraySlice(Array(buffer[readIndex..<(readIndex + count)]))
        consume(upTo: readIndex + count)
        return piece
    }

    private mutating func finishMessage() -> Event {
        let trailers = fields
        fields = HTTPHeaders()
        headerBytes = 0
        headerCount = 0
        framing = .none
        bodyBytesAnnounced = 0
        maxBodySize = limits.maxBodySize
        state = .requestLine
        return .end(trailers: trailers)
    }

    private mutating func fail(_ error: HTTPParseError) -> Event {
        state = .failed
        buffer = []
        readIndex = 0
        scanIndex = 0
        return .error(error)
    }

    // MARK: Buffer

    private var pendingByteCount: Int { buffer.count - readIndex }

    /// The next complete line, consumed; nil (and nothing consumed) when no LF is buffered.
    private mutating func takeLine() -> Line? {
        let from = max(scanIndex, readIndex)
        let lf: Int? = buffer.withUnsafeBufferPointer { p in
            var i = from
            while i < p.count {
                if p[i] == HTTPSyntax.lf { return i }
                i += 1
            }
            return nil
        }
        guard let lf else {
            scanIndex = buffer.count
            return nil
        }
        let crlf = lf > readIndex && buffer[lf - 1] == HTTPSyntax.cr
        let line = Line(start: readIndex, end: crlf ? lf - 1 : lf, next: lf + 1, endsWithCRLF: crlf)
        consume(upTo: lf + 1)
        return line
    }

    private mutating func consume(upTo index: Int) {
        readIndex = index
        scanIndex = index
    }

    /// Moves unparsed bytes to the front before appending, so the buffer's storage is reused.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if readIndex >= 4096 || readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
        } else {
            return
        }
        scanIndex -= readIndex
        readIndex = 0
    }

    /// Empties a fully consumed buffer, giving back unusually large storage.
    private mutating func releaseConsumedBytes() {
        guard readIndex > 0, readIndex == buffer.count else { return }
        buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
        readIndex = 0
        scanIndex = 0
    }
}
