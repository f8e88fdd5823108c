/// One statement with its parameters, as handed to `SQLConnection.pipeline`.
struct SQLStatement {
    /// The SQL text, with `$1`, `$2`… parameters.
    let sql: String
    /// The values bound to the parameters.
    let parameters: [SQLValue]

    /// A statement with `parameters`; none by default.
    init(_ sql: String, _ parameters: [SQLValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}
