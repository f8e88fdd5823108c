/// Why a benchmark step failed: a stable code for scripts and a message for people.
struct BenchError: Error, CustomStringConvertible {
    /// A stable identifier of the problem (`connect`, `http_status`, `protocol`, `sql`, ...).
    let code: String
    /// What went wrong, with the detail needed to act on it.
    let message: String

    init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(code): \(message)" }
}
