/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Repeated fields are kept in arrival order; `values(for:)` returns all of them and
/// `first(_:)` the first one. Names are stored as received; comparisons ignore ASCII case.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates a header list from name/value pairs, keeping their order.
    public init(_ pairs: [(String, String)]) { fields = pairs.map { (name: $0.0, value: $0.1) } }

    /// Creates a header list from a literal, keeping its order.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The number of fields, counting repeats.
    public var count: Int { fields.count }

    /// Makes room for `capacity` fields, so adding a request's fields one by one allocates once.
    public mutating func reserveCapacity(_ capacity: Int) { fields.reserveCapacity(capacity) }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field of this name with a single one.
    public mutating func replace(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of this name.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// The first value of the field with this name, if any.
    public func first(_ name: String) -> String? {
        fields.first { Self.namesEqual($0.name, name) }?.value
    }

    /// Every value of the field with this name, in arrival order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where Self.namesEqual(field.name, name) { values.append(field.value) }
        return values
    }

    /// How many fields have this name.
    public func count(of name: String) -> Int {
        var count = 0
        for field in fields where Self.namesEqual(field.name, name) { count += 1 }
        return count
    }

    /// Whether a field with this name is present.
    public func contains(_ name: String) -> Bool { first(name) != nil }

    /// Comma-separated tokens over all fields of this name, trimmed and lowercased
    /// (for `Connection`, `Upgrade`, `Transfer-Encoding`, `Sec-WebSocket-Extensions`...).
    public func tokens(_ name: String) -> [String] {
        var tokens: [String] = []
        for field in fields where Self.namesEqual(field.name, name) {
            for token in field.value.split(separator: ",") {
                let trimmed = token.trimmingASCIIWhitespace()
                if !trimmed.isEmpty { tokens.append(trimmed.lowercased()) }
            }
        }
        return tokens
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// Equal when they hold the same fields in the same order (names compared ignoring ASCII case).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesEqual($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison of two header names.
    ///
    /// Lookups run this for every field of every request, so native strings compare their
    /// UTF-8 storage directly; only bridged strings walk the views.
    public static func namesEqual(_ a: String, _ b: String) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        let direct = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in bytesEqualIgnoringASCIICase(x, y) }
        }
        if let direct, let direct { return direct }
        return zip(a, b).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
    }

    private static func bytesEqualIgnoringASCIICase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<a.count where a[i].asciiLowercased != b[i].asciiLowercased { return false }
        return true
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingASCIIWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
