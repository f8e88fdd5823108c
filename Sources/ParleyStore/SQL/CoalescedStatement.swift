/// One statement that does the work of many single-statement writes of the same kind: each
/// job contributes one row of arguments, passed as one PostgreSQL text array per column (`$1`…
/// `$arity`), with the operations' time as the last parameter. The statement answers one row per
/// job, its first column the job's 1-based position, the rest laid out as the job's own statement's answer.
struct CoalescedStatement: Equatable {
    /// The SQL text; jobs with equal SQL may be coalesced.
    let sql: String
    /// How many argument columns each job contributes.
    let arity: Int

    /// The statement for `jobs`' argument rows at `now`.
    func statement(for rows: [[String?]], now: Int64) -> SQLStatement {
        var parameters: [SQLValue] = []
        parameters.reserveCapacity(arity + 1)
        for column in 0..<arity {
            parameters.append(.text(PostgresArray.textLiteral(rows.lazy.map { $0[column] })))
        }
        parameters.append(.integer(now))
        return SQLStatement(sql, parameters)
    }
}

/// PostgreSQL array literals (`{"a","b",NULL}`) for text-format parameters.
enum PostgresArray {
    /// The literal of a one-dimensional text array; every element quoted, `"` and `\` escaped.
    static func textLiteral(_ values: some Sequence<String?>) -> String {
        var output: [UInt8] = [UInt8(ascii: "{")]
        var first = true
        for value in values {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            guard let value else {
                output.append(contentsOf: "NULL".utf8)
                continue
            }
            output.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { output.append(UInt8(ascii: "\\")) }
                output.append(byte)
            }
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "}"))
        return String(decoding: output, as: UTF8.self)
    }
}

/// A result row seen from column `offset` on, so a coalesced answer (position first) decodes like a single one.
struct ShiftedRow: SQLRow {
    let base: any SQLRow
    let offset: Int

    func isNull(_ column: Int) -> Bool { base.isNull(column + offset) }
    func int64(_ column: Int) -> Int64 { base.int64(column + offset) }
    func double(_ column: Int) -> Double { base.double(column + offset) }
    func text(_ column: Int) -> String { base.text(column + offset) }
    func blob(_ column: Int) -> [UInt8] { base.blob(column + offset) }
}
