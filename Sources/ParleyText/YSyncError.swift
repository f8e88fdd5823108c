/// Why a y-protocols message could not be decoded. Every case has a stable ``code``.
public enum YSyncError: Error, Equatable, Sendable {
    /// The message has no bytes at all.
    case empty
    /// The input ended in the middle of a value.
    case truncated
    /// A variable-length integer does not fit in 64 bits.
    case varintOverflow
    /// A variable-length integer was written with more bytes than needed.
    case varintOverlong
    /// A number (client id, clock, length) is beyond 2^53 - 1, the limit of lib0 and JavaScript.
    case valueOutOfRange
    /// A string is not valid UTF-8.
    case invalidUTF8
    /// A top-level message type y-protocols does not define.
    case unknownMessageType(UInt64)
    /// A sync sub-type other than step 1, step 2 and update.
    case unknownSyncType(UInt64)
    /// An auth sub-type other than permission-denied.
    case unknownAuthType(UInt64)
    /// A step-1 message whose state vector is malformed.
    case invalidStateVector
    /// Bytes remain after a complete message.
    case trailingBytes

    /// A stable, machine-readable code for this error.
    public var code: String {
        switch self {
        case .empty: "empty_message"
        case .truncated: "truncated"
        case .varintOverflow: "varint_overflow"
        case .varintOverlong: "varint_overlong"
        case .valueOutOfRange: "value_out_of_range"
        case .invalidUTF8: "invalid_utf8"
        case .unknownMessageType: "unknown_message_type"
        case .unknownSyncType: "unknown_sync_type"
        case .unknownAuthType: "unknown_auth_type"
        case .invalidStateVector: "invalid_state_vector"
        case .trailingBytes: "trailing_bytes"
        }
    }

    /// The matching error for a failure of the shared lib0 reader.
    init(reading error: ParleyTextError) {
        switch error {
        case .varintOverflow: self = .varintOverflow
        case .varintOverlong: self = .varintOverlong
        case .clockOverflow: self = .valueOutOfRange
        case .invalidUTF8: self = .invalidUTF8
        case .trailingBytes: self = .trailingBytes
        default: self = .truncated
        }
    }
}

extension YSyncError: CustomStringConvertible {
    /// A human-readable description that starts with the stable code.
    public var description: String {
        switch self {
        case .unknownMessageType(let type): "\(code): \(type)"
        case .unknownSyncType(let type): "\(code): \(type)"
        case .unknownAuthType(let type): "\(code): \(type)"
        default: code
        }
    }
}
