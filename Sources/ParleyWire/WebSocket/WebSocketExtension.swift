/// One element of a `Sec-WebSocket-Extensions` header: a name and its parameters.
public struct WebSocketExtension: Sendable, Hashable {
    /// A parameter, `name` or `name=value` (quoted values arrive unquoted).
    public struct Parameter: Sendable, Hashable {
        /// The parameter name, lowercased.
        public var name: String
        /// The value, nil for a valueless parameter.
        public var value: String?
        /// Creates a parameter.
        public init(_ name: String, _ value: String? = nil) { self.name = name; self.value = value }
    }

    /// The extension token, lowercased.
    public var name: String
    /// The parameters in the order sent.
    public var parameters: [Parameter]

    /// Creates an extension element.
    public init(name: String, parameters: [Parameter] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// The header form of this element, e.g. `permessage-deflate; client_max_window_bits=10`.
    public var headerValue: String {
        var text = name
        for parameter in parameters {
            text += "; " + parameter.name
            if let value = parameter.value { text += "=" + value }
        }
        return text
    }

    /// Parses every `Sec-WebSocket-Extensions` value (RFC 6455 §9.1 grammar);
    /// nil if any of them is malformed.
    public static func parse(_ values: [String]) -> [WebSocketExtension]? {
        var result: [WebSocketExtension] = []
        for value in values {
            var scanner = Scanner(Array(value.utf8))
            guard let elements = scanner.extensionList() else { return nil }
            result += elements
        }
        return result
    }
}

extension WebSocketExtension {
    /// A cursor over one header value.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8 { bytes[index] }

        mutating func skipWhitespace() {
            while !atEnd, current == 0x20 || current == 0x09 { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard !atEnd, current == byte else { return false }
            index += 1
            return true
        }

        /// `1#extension`, tolerating the empty list elements RFC 7230 §7 allows.
        mutating func extensionList() -> [WebSocketExtension]? {
            var elements: [WebSocketExtension] = []
            while true {
                skipWhitespace()
                if atEnd { return elements }
                if take(UInt8(ascii: ",")) { continue }
                guard let element = extensionElement() else { return nil }
                elements.append(element)
                skipWhitespace()
                if atEnd { return elements }
                guard take(UInt8(ascii: ",")) else { return nil }
            }
        }

        mutating func extensionElement() -> WebSocketExtension? {
            guard let name = token() else { return nil }
            var element = WebSocketExtension(name: name.lowercased())
            while take(UInt8(ascii: ";")) {
                guard let parameterName = token() else { return nil }
                var value: String?
                if take(UInt8(ascii: "=")) {
                    skipWhitespace()
                    guard let parsed = atEnd ? nil : (current == UInt8(ascii: "\"") ? quotedString() : token()) else {
                        return nil
                    }
                    value = parsed
                }
                element.parameters.append(Parameter(parameterName.lowercased(), value))
            }
            return element
        }

        mutating func token() -> String? {
            skipWhitespace()
            let start = index
            while !atEnd, Self.isTokenCharacter(current) { index += 1 }
            guard index > start else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func quotedString() -> String? {
            index += 1  // opening quote
            var out: [UInt8] = []
            while !atEnd {
                let byte = current
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard !atEnd else { return nil }
                    out.append(current)
                    index += 1
                default: out.append(byte)
                }
            }
            return nil
        }

        static func isTokenCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
