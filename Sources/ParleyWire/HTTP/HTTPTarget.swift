/// A request target split into its path and query, percent-decoded.
///
/// Accepts origin-form (`/path?query`), absolute-form (`http://host/path?query`, whose
/// authority is dropped) and asterisk-form (`*`). A fragment (`#...`), which clients should
/// not send, is ignored. Percent-decoding rejects malformed escapes, encoded NUL bytes and
/// results that are not UTF-8, each as a 400 ``HTTPParseError``. In the query `+` means a
/// space. Dot segments are not resolved: the path is a name to route on, never a file path.
public struct HTTPTarget: Sendable, Equatable {
    /// The path as received, still percent-encoded (`*` for asterisk-form).
    public let rawPath: String
    /// The query as received, without the `?`; nil when the target has no `?`.
    public let rawQuery: String?
    /// The percent-decoded path.
    public let path: String
    /// The percent-decoded path segments, each decoded on its own (so `%2F` stays inside
    /// its segment); empty segments are dropped, so `/a//b/` gives `["a", "b"]`.
    public let pathSegments: [String]
    /// The percent-decoded query parameters in order (`+` decoded as space); a name without
    /// `=` has an empty value.
    public let query: [(String, String)]

    /// Splits and decodes a request target.
    public init(_ target: String) throws(HTTPParseError) {
        if let plain = Self.plainPath(target) {
            self = plain
            return
        }
        var bytes = Array(target.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        guard !bytes.isEmpty, bytes.allSatisfy(HTTPSyntax.isTargetByte) else { throw Self.invalidTarget }
        if bytes == [UInt8(ascii: "*")] {
            rawPath = "*"; rawQuery = nil; path = "*"; pathSegments = []; query = []
            return
        }
        let pathStart = try Self.pathStart(of: bytes)
        let queryMark = bytes[pathStart...].firstIndex(of: UInt8(ascii: "?"))
        var pathBytes = bytes[pathStart..<(queryMark ?? bytes.endIndex)]
        if pathBytes.isEmpty { pathBytes = [UInt8(ascii: "/")] }
        rawPath = String(decoding: pathBytes, as: UTF8.self)
        rawQuery = queryMark.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
        path = try Self.decode(pathBytes, plusIsSpace: false)
        pathSegments = try pathBytes.split(separator: UInt8(ascii: "/")).map { segment throws(HTTPParseError) in
            try Self.decode(segment, plusIsSpace: false)
        }
        if let queryMark {
            query = try Self.decodeQuery(bytes[(queryMark + 1)...])
        } else {
            query = []
        }
    }

    /// The first value of the query parameter with this (decoded, case-sensitive) name.
    public func query(_ name: String) -> String? {
        query.first { $0.0 == name }?.1
    }

    /// Every value of the query parameter with this name, in order.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.0 == name }.map(\.1)
    }

    /// Targets are equal when their raw path and their raw and decoded queries are.
    public static func == (lhs: HTTPTarget, rhs: HTTPTarget) -> Bool {
        lhs.rawPath == rhs.rawPath && lhs.rawQuery == rhs.rawQuery
            && lhs.query.count == rhs.query.count && zip(lhs.query, rhs.query).allSatisfy { $0 == $1 }
    }

    private init(plainPath: String, segments: [String]) {
        rawPath = plainPath
        rawQuery = nil
        path = plainPath
        pathSegments = segments
        query = []
    }

    /// The target of most requests, an origin-form path with nothing to decode (no `%`, query or
    /// fragment): the path is the target itself, and only segments longer than a small string
    /// are allocated. Nil for any other target, which the general path splits and decodes.
    private static func plainPath(_ target: String) -> HTTPTarget? {
        var contiguous = target
        let segments = contiguous.withUTF8 { bytes -> [String]? in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            var slashes = 0
            for byte in bytes {
                guard HTTPSyntax.isTargetByte(byte), byte != UInt8(ascii: "%"), byte != UInt8(ascii: "?"),
                    byte != UInt8(ascii: "#")
                else { return nil }
                if byte == UInt8(ascii: "/") { slashes += 1 }
            }
            var segments: [String] = []
            segments.reserveCapacity(slashes)
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > start { segments.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                start = index + 1
            }
            return segments
        }
        return segments.map { HTTPTarget(plainPath: target, segments: $0) }
    }

    // MARK: Decoding

    private static let invalidTarget = HTTPParseError(
        code: HTTPParseError.Code.invalidTarget, status: .badRequest,
        message: "the request target must be an absolute path, an absolute URI or *")

    /// Where the path begins: at once for origin-form, after the authority for absolute-form.
    private static func pathStart(of bytes: [UInt8]) throws(HTTPParseError) -> Int {
        if bytes[0] == UInt8(ascii: "/") { return 0 }
        for scheme in ["http://", "https://"] {
            let prefix = Array(scheme.utf8)
            guard bytes.count > prefix.count,
                zip(bytes, prefix).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
            else { continue }
            let authorityEnd =
                bytes[prefix.count...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
                ?? bytes.endIndex
            guard authorityEnd > prefix.count else { throw invalidTarget }
            return authorityEnd
        }
        throw invalidTarget
    }

    private static func decodeQuery(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for pair in bytes.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = try decode(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true)
            let value =
                try equals.map { e throws(HTTPParseError) in try decode(pair[(e + 1)...], plusIsSpace: true) } ?? ""
            pairs.append((name, value))
        }
        return pairs
    }

    /// Percent-decodes bytes into a UTF-8 string.
    static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) throws(HTTPParseError) -> String {
        let percent = UInt8(ascii: "%"), plus = UInt8(ascii: "+")
        if !bytes.contains(where: { $0 == percent || (plusIsSpace && $0 == plus) }) {
            return String(decoding: bytes, as: UTF8.self)  // visible ASCII, nothing to decode
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == percent {
                guard i + 2 < bytes.endIndex,
                    let high = HTTPSyntax.hexValue(bytes[i + 1]), let low = HTTPSyntax.hexValue(bytes[i + 2])
                else {
                    throw HTTPParseError(
                        code: HTTPParseError.Code.invalidPercentEncoding, status: .badRequest,
                        message: "'%' must be followed by two hex digits")
                }
                let decoded = UInt8(high << 4 | low)
                guard decoded != 0 else {
                    throw HTTPParseError(
                        code: HTTPParseError.Code.encodedNul, status: .badRequest,
                        message: "percent-encoded NUL (%00) is not allowed")
                }
                out.append(decoded)
                i += 3
            } else {
                out.append(plusIsSpace && b == plus ? UInt8(ascii: " ") : b)
                i += 1
            }
        }
        guard let string = String(validating: out, as: UTF8.self) else {
            throw HTTPParseError(
                code: HTTPParseError.Code.invalidUTF8, status: .badRequest,
                message: "percent-decoded text is not valid UTF-8")
        }
        return string
    }
}
