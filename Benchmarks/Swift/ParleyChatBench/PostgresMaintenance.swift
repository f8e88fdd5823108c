import CPostgres

/// Statements PostgreSQL runs outside a transaction (VACUUM), on a connection of their own.
enum PostgresMaintenance {
    static func run(_ sql: String, url: String) throws(BenchError) {
        guard let connection = PQconnectdb(url) else { throw BenchError("sql", "PQconnectdb: out of memory") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw BenchError("sql", "cannot connect: \(PQerrorMessage(connection).map { String(cString: $0) } ?? "")")
        }
        guard let result = PQexec(connection, sql) else { throw BenchError("sql", "\(sql): no result") }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw BenchError("sql", "\(sql): \(String(cString: PQresultErrorMessage(result)))")
        }
    }
}
