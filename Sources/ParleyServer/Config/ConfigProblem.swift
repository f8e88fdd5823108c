/// One thing wrong with a config file: where (a JSON path such as `$.apps[0].key`, and the
/// line and column when known) and what.
struct ConfigProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending member.
    let path: String
    /// What is wrong, with the fix when one is likely (a nearby key name).
    let message: String
    /// 1-based line and column in the file, when the path could be found there.
    var position: ConfigSourcePosition? = nil

    var description: String {
        let at = position.map { "line \($0.line), column \($0.column): " } ?? ""
        return "\(at)\(path): \(message)"
    }
}
