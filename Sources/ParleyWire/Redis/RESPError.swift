/// Why bytes from a Redis server could not be read as RESP. The connection is unusable after
/// one (its framing is lost) and must be closed.
///
/// `code` is stable, for logs and metrics; `message` is for people and may change.
public struct RESPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable error code.
    public var code: Code
    /// A human-readable explanation.
    public var message: String

    /// The stable codes.
    public enum Code: String, Sendable {
        /// A type byte RESP does not define.
        case unknownType = "resp_unknown_type"
        /// A length, count or number that is not a valid decimal (or out of range).
        case invalidNumber = "resp_invalid_number"
        /// A line or bulk payload not ended by CRLF, or a bare CR/LF inside a line.
        case invalidFraming = "resp_invalid_framing"
        /// A bulk string longer than the parser's `maxBulkLength`.
        case bulkTooLong = "resp_bulk_too_long"
        /// An aggregate with more elements than `maxAggregateCount`.
        case aggregateTooLarge = "resp_aggregate_too_large"
        /// Aggregates nested deeper than `maxDepth`.
        case tooDeep = "resp_too_deep"
        /// A simple line (status, error, number) longer than `maxLineLength`.
        case lineTooLong = "resp_line_too_long"
    }

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
