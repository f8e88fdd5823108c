/// Serialises HTTP/1.1 responses into bytes ready for the socket.
///
/// The writer owns the framing headers: any `Content-Length` or `Transfer-Encoding` in the
/// given head is replaced by the framing it writes, and `Connection: close` is written when
/// the connection will not be kept alive (replacing any other `Connection` value).
/// Responses to HTTP/1.0 clients that stay open get `Connection: keep-alive`.
/// Header names that are not tokens are dropped and control characters in values and the
/// reason phrase become spaces, so a header value can never split the response.
/// No `Date` header is written; the server adds one from its clock if it wants.
public enum HTTPResponseWriter {
    /// `HTTP/1.1 100 Continue`, the interim answer to `Expect: 100-continue`.
    public static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// A complete response whose body is delimited by Content-Length.
    ///
    /// - Parameters:
    ///   - keepAlive: false adds `Connection: close`.
    ///   - requestVersion: the request's version; HTTP/1.0 clients kept alive get `Connection: keep-alive`.
    ///   - headRequest: answering HEAD: Content-Length describes `body`, which is not written.
    /// Statuses that forbid a body (1xx, 204, 304) get neither Content-Length nor body.
    public static func response(
        _ head: HTTPResponseHead, body: some Collection<UInt8> = [UInt8](), keepAlive: Bool = true,
        requestVersion: HTTPVersion = .http1_1, headRequest: Bool = false
    ) -> [UInt8] {
        var out: [UInt8] = []
        writeResponse(
            head, body: body, keepAlive: keepAlive, requestVersion: requestVersion,
            headRequest: headRequest, into: &out)
        return out
    }

    /// Appends a complete Content-Length response to `out`; see ``response(_:body:keepAlive:requestVersion:headRequest:)``.
    public static func writeResponse(
        _ head: HTTPResponseHead, body: some Collection<UInt8>, keepAlive: Bool = true,
        requestVersion: HTTPVersion = .http1_1, headRequest: Bool = false, into out: inout [UInt8]
    ) {
        let hasBody = !head.status.forbidsBody
        let writesBody = hasBody && !headRequest
        out.reserveCapacity(out.count + estimatedHeadSize(head) + (writesBody ? body.count : 0))
        writeHead(
            head, framing: hasBody ? .length(body.count) : .none, keepAlive: keepAlive,
            requestVersion: requestVersion, into: &out)
        if writesBody { out.append(contentsOf: body) }
    }

    /// The head of a streamed response with `Transfer-Encoding: chunked`; follow it with
    /// ``chunk(_:)`` calls and one ``finalChunk(trailers:)``. HTTP/1.0 clients cannot read
    /// chunked bodies: answer them with ``response(_:body:keepAlive:requestVersion:headRequest:)``.
    public static func chunkedHead(
        _ head: HTTPResponseHead, keepAlive: Bool = true, requestVersion: HTTPVersion = .http1_1
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedHeadSize(head))
        writeHead(head, framing: .chunked, keepAlive: keepAlive, requestVersion: requestVersion, into: &out)
        return out
    }

    /// One chunk of a streamed body. Empty input gives no bytes, since an empty chunk
    /// would end the body; use ``finalChunk(trailers:)`` for that.
    public static func chunk(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        writeChunk(bytes, into: &out)
        return out
    }

    /// Appends one chunk to `out`; see ``chunk(_:)``.
    public static func writeChunk(_ bytes: some Collection<UInt8>, into out: inout [UInt8]) {
        let count = bytes.count
        guard count > 0 else { return }
        out.reserveGrowing(toAtLeast: out.count + count + 20)
        HTTPSyntax.appendHex(count, to: &out)
        out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
        out.append(contentsOf: bytes)
        out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
    }

    /// The last chunk of a streamed body, with optional trailer fields.
    public static func finalChunk(trailers: HTTPHeaders = HTTPHeaders()) -> [UInt8] {
        var out: [UInt8] = [0x30, HTTPSyntax.cr, HTTPSyntax.lf]
        for field in trailers { writeField(field.name, field.value, into: &out) }
        out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
        return out
    }

    /// An interim (1xx) response head, such as 103 Early Hints; for 100 Continue use ``continueResponse``.
    public static func interim(_ status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders()) -> [UInt8] {
        precondition((100..<200).contains(status.code), "interim responses are 1xx")
        var out: [UInt8] = []
        writeHead(
            HTTPResponseHead(status: status, headers: headers), framing: .none, keepAlive: true,
            requestVersion: .http1_1, into: &out)
        return out
    }

    // MARK: Serialisation

    private enum Framing {
        case none
        case length(Int)
        case chunked
    }

    private static func writeHead(
        _ head: HTTPResponseHead, framing: Framing, keepAlive: Bool, requestVersion: HTTPVersion,
        into out: inout [UInt8]
    ) {
        writeStatusLine(head, into: &out)
        var hasConnection = false
        for field in head.headers {
            if isFramingField(field.name) { continue }
            if HTTPHeaders.namesEqual(field.name, "Connection") {
                if !keepAlive { continue }
                hasConnection = true
            }
            writeField(field.name, field.value, into: &out)
        }
        switch framing {
        case .none: break
        case .length(let n):
            HTTPSyntax.append("Content-Length: ", to: &out)
            HTTPSyntax.appendDecimal(n, to: &out)
            out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
        case .chunked:
            HTTPSyntax.append("Transfer-Encoding: chunked\r\n", to: &out)
        }
        if !keepAlive {
            HTTPSyntax.append("Connection: close\r\n", to: &out)
        } else if requestVersion == .http1_0, !hasConnection {
            HTTPSyntax.append("Connection: keep-alive\r\n", to: &out)
        }
        out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
    }

    private static func writeStatusLine(_ head: HTTPResponseHead, into out: inout [UInt8]) {
        HTTPSyntax.append("HTTP/", to: &out)
        HTTPSyntax.appendDecimal(head.version.major, to: &out)
        out.append(UInt8(ascii: "."))
        HTTPSyntax.appendDecimal(head.version.minor, to: &out)
        out.append(HTTPSyntax.sp)
        let code = min(max(head.status.code, 100), 999)
        HTTPSyntax.appendDecimal(code, to: &out)
        out.append(HTTPSyntax.sp)
        appendSanitized(head.status.reason, into: &out)
        out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
    }

    private static func writeField(_ name: String, _ value: String, into out: inout [UInt8]) {
        guard !name.isEmpty, name.utf8.allSatisfy(HTTPSyntax.isTokenByte) else { return }
        out.append(contentsOf: name.utf8)
        out.append(HTTPSyntax.colon); out.append(HTTPSyntax.sp)
        appendSanitized(value, into: &out)
        out.append(HTTPSyntax.cr); out.append(HTTPSyntax.lf)
    }

    /// Appends text, turning control characters (CR and LF above all) into spaces.
    private static func appendSanitized(_ text: String, into out: inout [UInt8]) {
        let utf8 = text.utf8
        if utf8.allSatisfy(HTTPSyntax.isFieldValueByte) {
            out.append(contentsOf: utf8)
        } else {
            for b in utf8 { out.append(HTTPSyntax.isFieldValueByte(b) ? b : HTTPSyntax.sp) }
        }
    }

    private static func isFramingField(_ name: String) -> Bool {
        HTTPHeaders.namesEqual(name, "Content-Length") || HTTPHeaders.namesEqual(name, "Transfer-Encoding")
    }

    private static func estimatedHeadSize(_ head: HTTPResponseHead) -> Int {
        head.headers.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}
