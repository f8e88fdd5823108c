/// A JSON object that keeps its members in order.
///
/// Lookup is linear, which beats hashing for the small objects of the wire protocols.
/// When a key is repeated, lookup returns the last occurrence (as most parsers do).
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an empty object.
    public init() { members = [] }

    /// Creates an object from key/value pairs, keeping their order.
    public init(_ members: [(key: String, value: JSONValue)]) { self.members = members }

    /// Creates an object from a literal, keeping its order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The value of the last member with this key; setting replaces it or appends a member,
    /// and setting nil removes every member with this key.
    public subscript(key: String) -> JSONValue? {
        get {
            for i in members.indices.reversed() where members[i].key == key { return members[i].value }
            return nil
        }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let i = members.lastIndex(where: { $0.key == key }) {
                members[i].value = newValue
            } else {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Appends a member without checking for an existing key.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key: key, value: value))
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// Iterates the members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    /// Equal when they hold the same entries in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        // Copies of one object share their storage (a payload published on many channels): equal at once.
        if lhs.sharesStorage(with: rhs) { return true }
        return zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Whether both objects are copies of one value, still sharing their member storage.
    private func sharesStorage(with other: JSONObject) -> Bool {
        members.withUnsafeBufferPointer { mine in
            other.members.withUnsafeBufferPointer { theirs in mine.baseAddress != nil && mine.baseAddress == theirs.baseAddress }
        }
    }
}
