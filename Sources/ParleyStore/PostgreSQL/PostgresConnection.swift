import CPostgres

/// A libpq connection; owns its `PGconn*` and the names of the statements prepared on it.
///
/// Statements run as server-side prepared statements (`PQprepare` once, then
/// `PQexecPrepared`) with text-format parameters and results; BYTEA parameters go binary.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    private var preparedNames: [String: String] = [:]
    private let url: String
    private(set) var roundTrips = 0

    var dialect: SQLDialect { .postgres }

    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Connects to `url` (a `postgres://` URL or libpq conninfo) and makes commits synchronous.
    init(url: String) throws(StoreError) {
        guard let connection = PQconnectdb(url) else {
            throw StoreError(.connectionLost, "libpq could not allocate a connection")
        }
        self.handle = connection
        self.url = url
        guard PQstatus(connection) == CONNECTION_OK else {
            throw StoreError(.connectionLost, "cannot connect to PostgreSQL: \(lastMessage)")
        }
        try configureSession()
    }

    deinit {
        PQfinish(handle)
    }

    /// Silences notices, pins the settings durability depends on, and turns JIT compilation off:
    /// every statement here is short, and a plan the planner costs high (a search's scan per
    /// room) spent 79 ms compiling to run in 3.6.
    private func configureSession() throws(StoreError) {
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try run("SET synchronous_commit = on; SET client_min_messages = warning; SET TIME ZONE 'UTC'; SET jit = off")
    }

    private var lastMessage: String {
        guard let message = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: message).trimmingTrailingNewlines()
    }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int {
        try executePrepared(sql, parameters).affectedRows
    }

    func query(_ sql: String, _ parameters: [SQLValue], _ body: (any SQLRow) throws -> Void) throws {
        let result = try executePrepared(sql, parameters)
        let rows = result.rowCount
        var row: Int32 = 0
        while row < rows {
            try body(PostgresRow(result: result, row: row))
            row += 1
        }
    }

    func run(_ sql: String) throws(StoreError) {
        roundTrips += 1
        let result = try checked(PQexec(handle, sql), context: sql)
        _ = result
    }

    /// Sends every statement in libpq's pipeline mode, then one Sync, then reads the answers:
    /// one round trip for the lot. After a failure the server skips the rest up to the Sync
    /// (they come back "aborted"); the first failure is thrown once every answer was read, so the
    /// connection is left idle and out of pipeline mode either way.
    func pipeline(_ statements: [SQLStatement], _ row: (Int, any SQLRow) -> Void) throws(StoreError) {
        var names: [String] = []
        names.reserveCapacity(statements.count)
        for statement in statements { names.append(try preparedName(statement.sql)) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw StoreError(isHealthy ? .internal : .connectionLost, "cannot enter pipeline mode: \(lastMessage)")
        }
        roundTrips += 1
        let sent = send(statements, names: names)
        var failure: StoreError? =
            sent < statements.count
            ? StoreError(isHealthy ? .internal : .connectionLost, "cannot send a pipelined statement: \(lastMessage)") : nil
        if PQpipelineSync(handle) != 1 {
            failure = failure ?? StoreError(.connectionLost, "cannot end a pipeline: \(lastMessage)")
        }
        for index in 0..<sent {
            let error = receive(statements[index].sql) { row(index, $0) }
            if failure == nil, let error { failure = error }
        }
        awaitSync()
        if PQexitPipelineMode(handle) != 1 {
            failure = failure ?? StoreError(.connectionLost, "cannot leave pipeline mode: \(lastMessage)")
        }
        if let failure { throw failure }
    }

    /// Queues the statements without waiting; returns how many libpq accepted.
    private func send(_ statements: [SQLStatement], names: [String]) -> Int {
        for (index, statement) in statements.enumerated() {
            let queued =
                (try? withParameterArrays(statement.parameters) { values, lengths, formats in
                    PQsendQueryPrepared(handle, names[index], Int32(statement.parameters.count), values, lengths, formats, 0)
                }) ?? 0
            if queued != 1 { return index }
        }
        return statements.count
    }

    /// Reads one pipelined statement's answer up to the NULL that ends it; returns its error, if any.
    private func receive(_ sql: String, _ row: (any SQLRow) -> Void) -> StoreError? {
        var failure: StoreError?
        var answered = false
        while let raw = PQgetResult(handle) {
            answered = true
            let result = PostgresResult(raw)
            switch PQresultStatus(raw) {
            case PGRES_TUPLES_OK:
                for index in 0..<Int32(result.rowCount) { row(PostgresRow(result: result, row: index)) }
            case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                break
            case PGRES_PIPELINE_ABORTED:
                failure = failure ?? StoreError(.internal, "skipped after an earlier statement of its pipeline failed (\(sql))")
            default:
                let state = result.sqlState
                failure =
                    failure
                    ?? StoreError(
                        isHealthy ? Self.code(forSQLState: state) : .connectionLost,
                        "\(result.errorMessage) (SQLSTATE \(state))")
            }
        }
        if !answered { return StoreError(.connectionLost, "no answer to a pipelined statement: \(lastMessage)") }
        return failure
    }

    /// Consumes the answer to the pipeline's Sync (nothing more is outstanding after it).
    private func awaitSync() {
        while let raw = PQgetResult(handle) {
            let status = PQresultStatus(raw)
            PQclear(raw)
            if status == PGRES_PIPELINE_SYNC { return }
        }
    }

    func reconnect() throws(StoreError) {
        preparedNames.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError(.connectionLost, "cannot reconnect to PostgreSQL: \(lastMessage)")
        }
        try configureSession()
    }

    /// Prepares `sql` once per connection, then executes it with `parameters`.
    private func executePrepared(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> PostgresResult {
        let name = try preparedName(sql)
        roundTrips += 1
        return try withParameterArrays(parameters) { (values, lengths, formats) throws(StoreError) -> PostgresResult in
            try checked(PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0), context: sql)
        }
    }

    private func preparedName(_ sql: String) throws(StoreError) -> String {
        if let name = preparedNames[sql] { return name }
        let name = "p\(preparedNames.count + 1)"
        roundTrips += 1
        _ = try checked(PQprepare(handle, name, sql, 0, nil), context: sql)
        preparedNames[sql] = name
        return name
    }

    /// Lays the parameters out as the C arrays `PQexecPrepared` takes, in one buffer.
    private func withParameterArrays<R>(
        _ parameters: [SQLValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws(StoreError) -> R
    ) throws(StoreError) -> R {
        var storage: [UInt8] = [0]
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        offsets.reserveCapacity(parameters.count)
        for value in parameters {
            let start = storage.count
            switch value {
            case .null:
                offsets.append(-1)
                lengths.append(0)
                formats.append(0)
                continue
            case .integer(let number):
                storage.append(contentsOf: String(number).utf8)
                formats.append(0)
            case .real(let number):
                storage.append(contentsOf: "\(number)".utf8)
                formats.append(0)
            case .text(let string):
                storage.append(contentsOf: string.utf8)
                formats.append(0)
            case .blob(let bytes):
                storage.append(contentsOf: bytes)
                formats.append(1)
            }
            lengths.append(Int32(storage.count - start))
            storage.append(0)
            offsets.append(start)
        }
        return try storage.withUnsafeBufferPointer { (buffer) throws(StoreError) -> R in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset < 0 ? nil : (base + offset).assumingMemoryBound(to: CChar.self)
            }
            return try pointers.withUnsafeBufferPointer { (values) throws(StoreError) -> R in
                try lengths.withUnsafeBufferPointer { (lengthBuffer) throws(StoreError) -> R in
                    try formats.withUnsafeBufferPointer { (formatBuffer) throws(StoreError) -> R in
                        try body(values.baseAddress, lengthBuffer.baseAddress, formatBuffer.baseAddress)
                    }
                }
            }
        }
    }

    /// Wraps a libpq result and turns a failed one into a `StoreError`.
    private func checked(_ raw: OpaquePointer?, context: String) throws(StoreError) -> PostgresResult {
        guard let raw else {
            throw StoreError(isHealthy ? .internal : .connectionLost, "\(lastMessage) (\(context))")
        }
        let result = PostgresResult(raw)
        let status = PQresultStatus(raw)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            return result
        }
        let state = result.sqlState
        let code = isHealthy ? Self.code(forSQLState: state) : .connectionLost
        throw StoreError(code, "\(result.errorMessage) (SQLSTATE \(state))")
    }

    /// The stable code for a PostgreSQL SQLSTATE.
    static func code(forSQLState state: String) -> StoreError.Code {
        switch state {
        case "23505": return .alreadyExists
        case "23503": return .foreignKeyViolation
        case "40001", "40P01", "55P03": return .busy
        default: break
        }
        switch state.prefix(2) {
        case "23": return .constraintViolation
        case "08", "57": return .connectionLost
        case "53", "58": return .io
        case "XX": return .corrupt
        default: return .internal
        }
    }
}
