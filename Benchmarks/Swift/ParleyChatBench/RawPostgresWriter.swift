import CPostgres

/// Raw PostgreSQL writes through libpq with `synchronous_commit = on`: server-side prepared
/// statements, text parameters, one round trip per statement.
final class RawPostgresWriter: RawWriter {
    let engine = "postgres"
    private let handle: OpaquePointer
    private var prepared: Set<String> = []

    init(url: String) throws(BenchError) {
        guard let connection = PQconnectdb(url) else { throw BenchError("sql", "PQconnectdb: out of memory") }
        handle = connection
        guard PQstatus(connection) == CONNECTION_OK else { throw BenchError("sql", "cannot connect: \(lastMessage)") }
        try execute("SET synchronous_commit = on")
    }

    deinit { PQfinish(handle) }

    func createRooms(app: String, _ ids: [String], now: Int64) throws(BenchError) {
        try execute("BEGIN")
        for id in ids {
            try execute(
                """
                INSERT INTO rooms (app_id, id, kind, name, last_seq, last_activity_at, member_count, created_at, updated_at)
                VALUES ('\(app)', '\(id)', 'private', '\(id)', 0, \(now), 0, \(now), \(now))
                """)
        }
        try execute("COMMIT")
    }

    func begin() throws(BenchError) { try execute("BEGIN") }

    func commit() throws(BenchError) { try execute("COMMIT") }

    func insert(_ rows: ArraySlice<RawRow>) throws(BenchError) {
        var values: [String] = []
        values.reserveCapacity(rows.count * RawRow.columnCount)
        for row in rows {
            values += [row.app, row.room, String(row.seq), row.sender, row.clientID, row.parts, String(row.createdAt)]
        }
        try executePrepared("ins\(rows.count)", RawRow.insertStatement(rows: rows.count) { "$\($0)" }, values)
    }

    func updateRoom(app: String, _ id: String, lastSeq: Int64, now: Int64) throws(BenchError) {
        try executePrepared(
            "room", "UPDATE rooms SET last_seq = $1, last_activity_at = $2 WHERE app_id = $3 AND id = $4",
            [String(lastSeq), String(now), app, id])
    }

    private func executePrepared(_ name: String, _ sql: @autoclosure () -> String, _ values: [String]) throws(BenchError) {
        if !prepared.contains(name) {
            try check(PQprepare(handle, name, sql(), 0, nil), "PREPARE \(name)")
            prepared.insert(name)
        }
        // One buffer of NUL-terminated values and the pointers into it.
        var storage: [CChar] = []
        var offsets: [Int] = []
        offsets.reserveCapacity(values.count)
        for value in values {
            offsets.append(storage.count)
            storage.append(contentsOf: value.utf8.map { CChar(bitPattern: $0) })
            storage.append(0)
        }
        let result = storage.withUnsafeBufferPointer { buffer in
            let pointers: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            return pointers.withUnsafeBufferPointer { PQexecPrepared(handle, name, Int32(values.count), $0.baseAddress, nil, nil, 0) }
        }
        try check(result, name)
    }

    private func execute(_ sql: String) throws(BenchError) {
        try check(PQexec(handle, sql), String(sql.prefix(60)))
    }

    private func check(_ result: OpaquePointer?, _ context: String) throws(BenchError) {
        guard let result else { throw BenchError("sql", "\(lastMessage) (\(context))") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError("sql", "\(String(cString: PQresultErrorMessage(result))) (\(context))")
        }
    }

    private var lastMessage: String { PQerrorMessage(handle).map { String(cString: $0) } ?? "unknown error" }
}
