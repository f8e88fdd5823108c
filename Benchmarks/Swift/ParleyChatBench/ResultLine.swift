/// The machine-readable summary a run ends with: `RESULT key=value ...` on one line, read by
/// Benchmarks/run_chat.sh (values never contain spaces).
struct ResultLine {
    private var fields: [(String, String)] = []

    init(label: String) { append("label", label.replacingSpaces()) }

    mutating func append(_ key: String, _ value: String) { fields.append((key, value)) }

    mutating func append(_ more: [(String, String)]) { fields += more }

    var text: String { "RESULT " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ") }
}

extension String {
    fileprivate func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}
