/// Why a byte string is not acceptable JSON.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem, stable across releases.
    public enum Code: String, Sendable {
        /// The input ended inside a value.
        case unexpectedEnd = "unexpected_end"
        /// A byte that cannot start or continue a value here.
        case unexpectedByte = "unexpected_byte"
        /// Non-whitespace bytes after the top-level value.
        case trailingBytes = "trailing_bytes"
        /// A number that does not follow the JSON grammar.
        case invalidNumber = "invalid_number"
        /// A bad escape sequence or an unpaired surrogate.
        case invalidEscape = "invalid_escape"
        /// A raw control character inside a string.
        case controlCharacter = "control_character"
        /// A string that is not valid UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// Arrays and objects nested deeper than the parser's limit.
        case tooDeep = "too_deep"
    }

    /// The kind of problem.
    public var code: Code
    /// The byte offset at which it was found.
    public var offset: Int

    /// Creates an error.
    public init(_ code: Code, at offset: Int) {
        self.code = code
        self.offset = offset
    }

    /// A one-line description for logs.
    public var description: String { "invalid JSON (\(code.rawValue)) at byte \(offset)" }
}
