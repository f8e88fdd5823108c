extension HTTPRequestParser {
    /// Parses `METHOD SP request-target SP HTTP-version` (the line's content, without its ending).
    static func parseRequestLine(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> Result<
        RequestLine, HTTPParseError
    > {
        var i = start
        while i < end, HTTPSyntax.isTokenByte(p[i]) { i += 1 }
        guard i > start else { return .failure(.malformedRequestLine("missing method")) }
        guard i < end, p[i] == HTTPSyntax.sp else {
            return .failure(.malformedRequestLine("the method must be a token followed by one space"))
        }
        let method = HTTPMethod(rawValue: string(p, start, i))
        i += 1
        let targetStart = i
        while i < end, HTTPSyntax.isTargetByte(p[i]) { i += 1 }
        guard i > targetStart else { return .failure(.malformedRequestLine("missing request target")) }
        guard i < end, p[i] == HTTPSyntax.sp else {
            return .failure(.malformedRequestLine("the request target must be visible ASCII followed by one space"))
        }
        let target = string(p, targetStart, i)
        i += 1
        switch parseVersion(p, i, end) {
        case .failure(let error): return .failure(error)
        case .success(let version): return .success(RequestLine(method: method, target: target, version: version))
        }
    }

    /// `HTTP/` DIGIT `.` DIGIT, case-sensitive; HTTP/1.x only.
    private static func parseVersion(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> Result<
        HTTPVersion, HTTPParseError
    > {
        let prefix: [UInt8] = [0x48, 0x54, 0x54, 0x50, 0x2F]  // "HTTP/"
        guard end - start == 8,
            (0..<5).allSatisfy({ p[start + $0] == prefix[$0] }),
            HTTPSyntax.isDigit(p[start + 5]), p[start + 6] == 0x2E, HTTPSyntax.isDigit(p[start + 7])
        else {
            return .failure(.malformedRequestLine("the version must look like HTTP/1.1 and end the line"))
        }
        let major = Int(p[start + 5] - 0x30), minor = Int(p[start + 7] - 0x30)
        guard major == 1 else { return .failure(.unsupportedVersion("HTTP/\(major).\(minor)")) }
        // A higher 1.x minor version is processed as the highest one implemented (RFC 9110 §6.2).
        return .success(minor == 0 ? .http1_0 : .http1_1)
    }

    /// Parses `field-name ":" OWS field-value OWS` (a header or trailer line).
    static func parseFieldLine(
        _ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> Result<
        (name: String, value: String), HTTPParseError
    > {
        if HTTPSyntax.isWhitespace(p[start]) { return .failure(.obsFold) }
        var i = start
        while i < end, HTTPSyntax.isTokenByte(p[i]) { i += 1 }
        guard i < end, p[i] == HTTPSyntax.colon else {
            if i == end { return .failure(.malformedHeader("missing colon")) }
            if HTTPSyntax.isWhitespace(p[i]) {
                return .failure(.malformedHeader("whitespace between the field name and the colon"))
            }
            return .failure(.malformedHeader("invalid character in the field name"))
        }
        guard i > start else { return .failure(.malformedHeader("empty field name")) }
        let name = string(p, start, i)
        let value = HTTPSyntax.trimWhitespace(p, i + 1, end)
        for j in value where !HTTPSyntax.isFieldValueByte(p[j]) {
            return .failure(.malformedHeader("control character in the value of \(name)"))
        }
        return .success((name, string(p, value.lowerBound, value.upperBound)))
    }

    /// Parses `chunk-size [ chunk-ext ]`; extensions are checked for legal bytes and ignored.
    static func parseChunkSize(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Result<Int, HTTPParseError> {
        var i = start
        var size = 0
        while i < end, let digit = HTTPSyntax.hexValue(p[i]) {
            guard size <= (Int.max - digit) >> 4 else { return .failure(.badChunk("chunk size overflows")) }
            size = size << 4 | digit
            i += 1
        }
        guard i > start else { return .failure(.badChunk("missing chunk size")) }
        while i < end, HTTPSyntax.isWhitespace(p[i]) { i += 1 }
        if i < end {
            guard p[i] == HTTPSyntax.semicolon else {
                return .failure(.badChunk("invalid character after the chunk size"))
            }
            for j in i..<end where !HTTPSyntax.isFieldValueByte(p[j]) {
                return .failure(.badChunk("control character in a chunk extension"))
            }
        }
        return .success(size)
    }

    /// HTTP/1.1 needs exactly one Host; no version may send several (RFC 9112 §3.2).
    static func hostError(_ head: HTTPRequestHead) -> HTTPParseError? {
        let hosts = head.headers.count(of: "Host")
        if hosts > 1 { return .multipleHosts }
        if hosts == 0, head.version == .http1_1 { return .missingHost }
        return nil
    }

    /// How the body is delimited (RFC 9112 §6.1–6.3), rejecting anything ambiguous.
    static func framing(of head: HTTPRequestHead) -> Result<Framing, HTTPParseError> {
        let lengths = head.headers.values(for: "Content-Length")
        if head.headers.contains("Transfer-Encoding") {
            if head.version == .http1_0 {
                return .failure(.invalidTransferEncoding("Transfer-Encoding is not allowed in an HTTP/1.0 request"))
            }
            if !lengths.isEmpty {
                return .failure(.conflictingLength("Content-Length and Transfer-Encoding together"))
            }
            return transferCodingFraming(head.headers.tokens("Transfer-Encoding"))
        }
        if lengths.isEmpty { return .success(.none) }
        return contentLengthFraming(lengths)
    }

    private static func transferCodingFraming(_ codings: [String]) -> Result<Framing, HTTPParseError> {
        guard let last = codings.last else {
            return .failure(.invalidTransferEncoding("empty Transfer-Encoding"))
        }
        guard last == "chunked" else {
            return .failure(.invalidTransferEncoding("the final transfer coding must be chunked"))
        }
        if codings.dropLast().contains("chunked") {
            return .failure(.invalidTransferEncoding("chunked applied more than once"))
        }
        if let other = codings.first(where: { $0 != "chunked" }) {
            return .failure(.unsupportedTransferEncoding(other))
        }
        return .success(.chunked)
    }

    /// Every Content-Length field and list element must be the same plain decimal number.
    private static func contentLengthFraming(_ values: [String]) -> Result<Framing, HTTPParseError> {
        var length: Int?
        for value in values {
            for element in value.utf8.split(separator: 0x2C, omittingEmptySubsequences: false) {
                guard let n = decimal(element) else { return .failure(.invalidContentLength) }
                if let length, length != n {
                    return .failure(.conflictingLength("differing Content-Length values"))
                }
                length = n
            }
        }
        guard let length else { return .failure(.invalidContentLength) }
        return .success(.length(length))
    }

    /// A decimal number of at most 18 digits, surrounded by optional whitespace.
    private static func decimal(_ bytes: Substring.UTF8View) -> Int? {
        var digits = bytes[...]
        while let f = digits.first, HTTPSyntax.isWhitespace(f) { digits.removeFirst() }
        while let l = digits.last, HTTPSyntax.isWhitespace(l) { digits.removeLast() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var n = 0
        for b in digits {
            guard HTTPSyntax.isDigit(b) else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }

    private static func string(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
    }
}
