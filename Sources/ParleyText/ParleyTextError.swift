/// An error from decoding a Yjs update or state vector, or from a local edit out of range.
///
/// Every case has a stable ``code`` string meant for logs and wire-level error replies.
/// A document that threw one of these while applying an update is unchanged.
public enum ParleyTextError: Error, Equatable, Sendable {
    /// The input ended in the middle of a value.
    case truncated
    /// A variable-length integer does not fit in 64 bits.
    case varintOverflow
    /// A variable-length integer was written with more bytes than needed.
    case varintOverlong
    /// A string is not valid UTF-8.
    case invalidUTF8
    /// A struct or range length is zero, too large, or inconsistent with its content.
    case invalidLength
    /// A clock or client value is outside the range the format allows.
    case clockOverflow
    /// A content reference number that the Yjs format does not define.
    case unknownContentRef(UInt8)
    /// A content type the Yjs format defines but a plain text document does not hold.
    case unsupportedContent(UInt8)
    /// A struct belongs to another root type, a nested type or a map key.
    case unsupportedParent
    /// A struct's origin points at a clock of its own client that is not before it.
    case invalidOrigin
    /// Bytes remain after a complete update or state vector.
    case trailingBytes
    /// A local edit names a position or range outside the document.
    case positionOutOfRange
    /// The document would exceed the sizes this implementation supports (2^31 UTF-16 units).
    case documentTooLarge
    /// A shared type reference number that the Yjs format does not define.
    case unknownTypeRef(UInt8)
    /// A value of the lib0 "any" encoding has an unknown tag or is malformed.
    case invalidAnyValue
    /// Nested arrays or objects go deeper than ``TextLimits`` allows.
    case nestingTooDeep

    /// A stable, machine-readable code for this error.
    public var code: String {
        switch self {
        case .truncated: "truncated"
        case .varintOverflow: "varint_overflow"
        case .varintOverlong: "varint_overlong"
        case .invalidUTF8: "invalid_utf8"
        case .invalidLength: "invalid_length"
        case .clockOverflow: "clock_overflow"
        case .unknownContentRef: "unknown_content"
        case .unsupportedContent: "unsupported_content"
        case .unsupportedParent: "unsupported_parent"
        case .invalidOrigin: "invalid_origin"
        case .trailingBytes: "trailing_bytes"
        case .positionOutOfRange: "position_out_of_range"
        case .documentTooLarge: "document_too_large"
        case .unknownTypeRef: "unknown_type"
        case .invalidAnyValue: "invalid_any"
        case .nestingTooDeep: "nesting_too_deep"
        }
    }
}

extension ParleyTextError: CustomStringConvertible {
    /// A human-readable description that starts with the stable code.
    public var description: String {
        switch self {
        case .unknownContentRef(let ref): "\(code): content ref \(ref)"
        case .unsupportedContent(let ref): "\(code): content ref \(ref)"
        case .unknownTypeRef(let ref): "\(code): type ref \(ref)"
        default: code
        }
    }
}
