/// Reads RESP2 and RESP3 values from a byte stream that arrives in arbitrary pieces, as a
/// value with no I/O: ``receive(_:)`` appends bytes, ``next()`` returns each complete value.
///
/// Resumable: an aggregate's header is consumed when it arrives and its elements as they
/// complete, so a large reply in many reads is parsed once (linear), not re-scanned from
/// its start on every read. Bounded: a declared length or count only ever admits what
/// ``Limits`` allows and is never used to reserve memory, so what the parser holds is a small
/// multiple of the bytes actually received. RESP3 attributes (`|`) are read and dropped.
/// After an error every later call throws it again: the stream's framing is gone.
public struct RESPParser: Sendable {
    /// What a peer may make the parser hold.
    public struct Limits: Sendable, Equatable {
        /// Longest bulk string (Redis's own cap is 512 MB; the bus never sends near it).
        public var maxBulkLength: Int
        /// Most elements one aggregate may declare (a map counts keys and values).
        public var maxAggregateCount: Int
        /// Deepest nesting of aggregates.
        public var maxDepth: Int
        /// Longest line of a simple value (status, error, number).
        public var maxLineLength: Int

        /// Creates limits; the defaults fit any reply Parley asks Redis for.
        public init(
            maxBulkLength: Int = 64 << 20, maxAggregateCount: Int = 1 << 20, maxDepth: Int = 32,
            maxLineLength: Int = 64 << 10
        ) {
            self.maxBulkLength = maxBulkLength
            self.maxAggregateCount = maxAggregateCount
            self.maxDepth = maxDepth
            self.maxLineLength = maxLineLength
        }
    }

    private enum AggregateKind: Sendable { case array, map, set, push, attribute }

    private struct Frame: Sendable {
        let kind: AggregateKind
        var remaining: Int
        var elements: [RESPValue] = []
    }

    /// What one step over the buffer found.
    private enum Token {
        case value(RESPValue)
        case aggregate(AggregateKind, count: Int)
    }

    /// The limits this parser enforces.
    public let limits: Limits
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already consumed.
    private var offset = 0
    private var stack: [Frame] = []
    private var failure: RESPError?

    /// Creates a parser with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes received and not yet consumed by a complete token.
    public var bufferedByteCount: Int { buffer.count - offset }

    /// Whether a value has started (an aggregate header or part of a token) and not finished.
    public var isMidValue: Bool { !stack.isEmpty || bufferedByteCount > 0 }

    /// Appends bytes read from the connection (copied).
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes read from the connection.
    public mutating func receive(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// The next complete value, or nil until more bytes arrive.
    public mutating func next() throws(RESPError) -> RESPValue? {
        if let failure { throw failure }
        do throws(RESPError) {
            while let token = try readToken() {
                switch token {
                case .value(let value):
                    if let done = deliver(value) { return done }
                case .aggregate(let kind, let count):
                    guard stack.count < limits.maxDepth else {
                        throw RESPError(.tooDeep, "aggregates nested deeper than \(limits.maxDepth)")
                    }
                    if count == 0 {
                        if let done = deliver(Self.build(Frame(kind: kind, remaining: 0)), closing: kind) { return done }
                    } else {
                        stack.append(Frame(kind: kind, remaining: count))
                    }
                }
            }
            return nil
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: Assembling aggregates

    /// Hands a finished value to the innermost open aggregate; returns it when it is a
    /// top-level value (or completes the outermost aggregate).
    private mutating func deliver(_ value: RESPValue, closing kind: AggregateKind? = nil) -> RESPValue? {
        // An empty attribute carries nothing and announces the value that follows.
        if kind == .attribute { return nil }
        var value = value
        while !stack.isEmpty {
            stack[stack.count - 1].elements.append(value)
            stack[stack.count - 1].remaining -= 1
            guard stack[stack.count - 1].remaining == 0 else { return nil }
            let frame = stack.removeLast()
            // A finished attribute is dropped; the value it annotates comes next.
            if frame.kind == .attribute { return nil }
            value = Self.build(frame)
        }
        return value
    }

    private static func build(_ frame: Frame) -> RESPValue {
        switch frame.kind {
        case .array: return .array(frame.elements)
        case .set: return .set(frame.elements)
        case .push: return .push(frame.elements)
        case .attribute: return .null
        case .map:
            var pairs: [RESPPair] = []
            var i = 0
            while i + 1 < frame.elements.count {
                pairs.append(RESPPair(key: frame.elements[i], value: frame.elements[i + 1]))
                i += 2
            }
            return .map(pairs)
        }
    }

    // MARK: Tokens

    /// Consumes one complete token from the buffer, or returns nil (consuming nothing) when it
    /// has not fully arrived.
    private mutating func readToken() throws(RESPError) -> Token? {
        guard offset < buffer.count else { return nil }
        let type = buffer[offset]
        switch type {
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "_"),
            UInt8(ascii: "#"), UInt8(ascii: ","), UInt8(ascii: "("):
            guard let (line, end) = try lineAfterType() else { return nil }
            let value = try Self.simpleValue(type: type, line: line)
            offset = end
            return .value(value)
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "="):
            return try bulkToken(type: type)
        case UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "|"):
            guard let (line, end) = try lineAfterType() else { return nil }
            let count = try Self.length(line, what: "aggregate count")
            if count == -1 {
                guard type == UInt8(ascii: "*") else { throw RESPError(.invalidNumber, "only an array may be null (*-1)") }
                offset = end
                return .value(.null)
            }
            let kind = Self.aggregateKind(type)
            let paired = kind == .map || kind == .attribute
            // Compared before doubling, so a huge declared count cannot overflow.
            guard count <= (paired ? limits.maxAggregateCount / 2 : limits.maxAggregateCount) else {
                throw RESPError(.aggregateTooLarge, "aggregate of \(count) declared; at most \(limits.maxAggregateCount) elements")
            }
            offset = end
            return .aggregate(kind, count: paired ? count * 2 : count)
        default:
            throw RESPError(.unknownType, "unknown RESP type byte \(type)")
        }
    }

    private mutating func bulkToken(type: UInt8) throws(RESPError) -> Token? {
        guard let (line, payloadStart) = try lineAfterType() else { return nil }
        let length = try Self.length(line, what: "bulk length")
        if length == -1 {
            guard type == UInt8(ascii: "$") else { throw RESPError(.invalidNumber, "only a bulk string may be null ($-1)") }
            offset = payloadStart
            return .value(.null)
        }
        guard length <= limits.maxBulkLength else {
            throw RESPError(.bulkTooLong, "bulk of \(length) bytes; at most \(limits.maxBulkLength)")
        }
        let end = payloadStart + length
        guard buffer.count >= end + 2 else { return nil }
        guard buffer[end] == 13, buffer[end + 1] == 10 else {
            throw RESPError(.invalidFraming, "bulk payload not followed by CRLF")
        }
        let payload = Array(buffer[payloadStart..<end])
        offset = end + 2
        switch type {
        case UInt8(ascii: "!"):
            return .value(.error(String(decoding: payload, as: UTF8.self)))
        case UInt8(ascii: "="):
            guard payload.count >= 4, payload[3] == UInt8(ascii: ":") else {
                throw RESPError(.invalidFraming, "verbatim string without a three-byte format and ':'")
            }
            return .value(.verbatim(format: String(decoding: payload[0..<3], as: UTF8.self), text: Array(payload[4...])))
        default:
            return .value(.bulkString(payload))
        }
    }

    /// The line after the type byte at `offset` and the index after its CRLF, or nil when the
    /// CRLF has not arrived. A bare CR or LF inside the line is a framing error.
    private func lineAfterType() throws(RESPError) -> (ArraySlice<UInt8>, Int)? {
        let start = offset + 1
        var i = start
        while i < buffer.count {
            let byte = buffer[i]
            if byte == 13 {
                guard i + 1 < buffer.count else { return nil }
                guard buffer[i + 1] == 10 else { throw RESPError(.invalidFraming, "CR not followed by LF") }
                return (buffer[start..<i], i + 2)
            }
            if byte == 10 { throw RESPError(.invalidFraming, "LF without CR") }
            if i - start >= limits.maxLineLength {
                throw RESPError(.lineTooLong, "line longer than \(limits.maxLineLength) bytes")
            }
            i += 1
        }
        return nil
    }

    // MARK: Scalars

    private static func simpleValue(type: UInt8, line: ArraySlice<UInt8>) throws(RESPError) -> RESPValue {
        switch type {
        case UInt8(ascii: "+"): return .simpleString(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: "-"): return .error(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: ":"): return .integer(try integer(line))
        case UInt8(ascii: "_"):
            guard line.isEmpty else { throw RESPError(.invalidFraming, "null with a payload") }
            return .null
        case UInt8(ascii: "#"):
            if line.elementsEqual([UInt8(ascii: "t")]) { return .boolean(true) }
            if line.elementsEqual([UInt8(ascii: "f")]) { return .boolean(false) }
            throw RESPError(.invalidNumber, "boolean that is neither t nor f")
        case UInt8(ascii: ","): return .double(try double(line))
        default: return .bigNumber(try bigNumber(line))
        }
    }

    /// A signed decimal that fits Int64: an optional `-`, then 1 to 19 digits.
    static func integer(_ line: ArraySlice<UInt8>) throws(RESPError) -> Int64 {
        var digits = line[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw RESPError(.invalidNumber, "not a decimal integer")
        }
        // Accumulated towards the sign, so Int64.min (one more than Int64.max) still fits.
        var value: Int64 = 0
        for digit in digits {
            let step = value.multipliedReportingOverflow(by: 10)
            let amount = Int64(digit - 48)
            let next = negative ? step.partialValue.subtractingReportingOverflow(amount) : step.partialValue.addingReportingOverflow(amount)
            guard !step.overflow, !next.overflow else { throw RESPError(.invalidNumber, "integer out of range") }
            value = next.partialValue
        }
        return value
    }

    /// A length or count: -1 (null) or a non-negative number that fits Int.
    private static func length(_ line: ArraySlice<UInt8>, what: String) throws(RESPError) -> Int {
        let value = try integer(line)
        guard value >= -1, value <= Int64(Int.max) else { throw RESPError(.invalidNumber, "\(what) \(value)") }
        return Int(value)
    }

    private static func double(_ line: ArraySlice<UInt8>) throws(RESPError) -> Double {
        let text = String(decoding: line, as: UTF8.self)
        switch text {
        case "inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "-nan": return .nan
        default: break
        }
        // Plain decimal notation only (Swift would also take hex floats and "infinity").
        let allowed = line.allSatisfy { ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 43 || $0 == 46 || $0 == 101 || $0 == 69 }
        guard allowed, let value = Double(text) else { throw RESPError(.invalidNumber, "not a double") }
        return value
    }

    private static func bigNumber(_ line: ArraySlice<UInt8>) throws(RESPError) -> String {
        var digits = line[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw RESPError(.invalidNumber, "not a big number")
        }
        return String(decoding: line, as: UTF8.self)
    }

    private static func aggregateKind(_ type: UInt8) -> AggregateKind {
        switch type {
        case UInt8(ascii: "%"): .map
        case UInt8(ascii: "~"): .set
        case UInt8(ascii: ">"): .push
        case UInt8(ascii: "|"): .attribute
        default: .array
        }
    }

    // MARK: Buffer

    /// Drops the consumed prefix once it is large and most of the buffer, so memory tracks
    /// what is unparsed and compaction stays amortised linear.
    private mutating func compactIfWorthIt() {
        guard offset > 0 else { return }
        if offset == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            offset = 0
        } else if offset >= 4096 && offset * 2 >= buffer.count {
            buffer.removeFirst(offset)
            offset = 0
        }
    }
}
