/// Reads `--flag value` pairs, with typed accessors that name the flag in their errors.
struct ArgumentReader {
    private var rest: IndexingIterator<[String]>

    init(_ arguments: [String]) {
        rest = arguments.makeIterator()
    }

    /// The next flag name, or nil at the end.
    mutating func nextFlag() -> String? { rest.next() }

    /// The value after `flag`.
    mutating func string(for flag: String) throws(BenchError) -> String {
        guard let value = rest.next() else { throw BenchError("usage", "\(flag) needs a value") }
        return value
    }

    /// An integer value in `range`.
    mutating func integer(for flag: String, in range: ClosedRange<Int>) throws(BenchError) -> Int {
        let text = try string(for: flag)
        guard let value = Int(text), range.contains(value) else {
            throw BenchError("usage", "\(flag) must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// A comma-separated list of integers in `range` (an empty string is an empty list).
    mutating func integers(for flag: String, in range: ClosedRange<Int>) throws(BenchError) -> [Int] {
        let text = try string(for: flag)
        var values: [Int] = []
        for item in text.split(separator: ",") {
            guard let value = Int(item), range.contains(value) else {
                throw BenchError("usage", "\(flag) takes numbers in \(range.lowerBound)...\(range.upperBound), not '\(item)'")
            }
            values.append(value)
        }
        return values
    }
}
