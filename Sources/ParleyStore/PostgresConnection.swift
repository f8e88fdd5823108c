import CPostgres

/// A libpq connection; owns its `PGconn*` and the names of the statements prepared on it.
///
/// Statements run as server-side prepared statements (`PQprepare` once, then
/// `PQexecPrepared`) with text-format parameters and results; BYTEA parameters go binary.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    private var preparedNames: [String: String] = [:]
    private let url: String

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

    /// Silences notices and pins the settings durability depends on.
    private func configureSession() throws(StoreError) {
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try run("SET synchronous_commit = on; SET client_min_messages = warning; SET TIME ZONE 'UTC'")
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
        let result = try checked(PQexec(handle, sql), context: sql)
        _ = result
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
        return try withParameterArrays(parameters) { (values, lengths, formats) throws(StoreError) -> PostgresResult in
            try checked(PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0), context: sql)
        }
    }

    private func preparedName(_ sql: String) throws(StoreError) -> String {
        if let name = preparedNames[sql] { return name }
        let name = "p\(preparedNames.count + 1)"
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
