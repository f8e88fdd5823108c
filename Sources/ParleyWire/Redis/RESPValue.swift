/// One value of the Redis serialization protocol: the RESP2 types every Redis speaks and the
/// RESP3 types a server sends after `HELLO 3` (or in pushes).
///
/// Bytes stay bytes (`[UInt8]`): channel names and payloads are binary-safe in Redis, and
/// the bus carries serialized events, not text.
public enum RESPValue: Sendable, Equatable {
    /// `+OK` — a short status line.
    case simpleString(String)
    /// `-ERR …` or `!` (RESP3 bulk error) — the server refused a command.
    case error(String)
    /// `:42`.
    case integer(Int64)
    /// `$3\r\nabc` — binary-safe; `$-1` (RESP2 null) decodes as ``null``.
    case bulkString([UInt8])
    /// `*2\r\n…` — `*-1` (RESP2 null array) decodes as ``null``.
    case array([RESPValue])
    /// `_` (RESP3), `$-1` and `*-1` (RESP2).
    case null
    /// `#t` / `#f` (RESP3).
    case boolean(Bool)
    /// `,3.14` (RESP3), including `inf`, `-inf` and `nan`.
    case double(Double)
    /// `(3492890328409238509324850943850943825024385` (RESP3), kept as its digits.
    case bigNumber(String)
    /// `=15\r\ntxt:Some string` (RESP3): a three-letter format and the text.
    case verbatim(format: String, text: [UInt8])
    /// `%2\r\n…` (RESP3): key–value pairs in the order sent.
    case map([RESPPair])
    /// `~2\r\n…` (RESP3).
    case set([RESPValue])
    /// `>3\r\n…` (RESP3): out-of-band data such as pub/sub messages.
    case push([RESPValue])

    /// The bytes of a bulk or simple string, or of a verbatim string's text.
    public var bytes: [UInt8]? {
        switch self {
        case .bulkString(let bytes): bytes
        case .simpleString(let text): Array(text.utf8)
        case .verbatim(_, let text): text
        default: nil
        }
    }

    /// The elements of an array, set or push.
    public var elements: [RESPValue]? {
        switch self {
        case .array(let values), .set(let values), .push(let values): values
        default: nil
        }
    }
}

/// One key–value pair of a RESP3 map.
public struct RESPPair: Sendable, Equatable {
    /// The key.
    public var key: RESPValue
    /// The value.
    public var value: RESPValue

    /// Creates a pair.
    public init(key: RESPValue, value: RESPValue) {
        self.key = key
        self.value = value
    }
}
