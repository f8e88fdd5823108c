/// A Pusher socket id: two decimal integers joined by a dot (`\d+\.\d+`).
public struct PusherSocketID: Hashable, Sendable, CustomStringConvertible {
    /// The text form, e.g. `"123.456"`.
    public let rawValue: String

    /// Parses and validates a socket id; nil unless it is `digits.digits`.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        rawValue = text
    }

    /// Creates a socket id from its two numbers.
    public init(_ high: UInt32, _ low: UInt32) {
        rawValue = "\(high).\(low)"
    }

    /// A new unguessable socket id from random bytes.
    public static func random() -> PusherSocketID {
        let bytes = Digest.randomBytes(8)
        let high = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
        let low = bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
        return PusherSocketID(high, low)
    }

    /// Whether text has the `digits.digits` shape.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count <= 41, let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return false }
        let high = utf8[utf8.startIndex..<dot], low = utf8[utf8.index(after: dot)...]
        let isDigit = { (b: UInt8) in b &- UInt8(ascii: "0") < 10 }
        return !high.isEmpty && !low.isEmpty && high.allSatisfy(isDigit) && low.allSatisfy(isDigit)
    }

    public var description: String { rawValue }
}
