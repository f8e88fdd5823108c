/// The connection an operation runs on, handed to `write` and `read` closures.
///
/// Valid only inside the closure (it belongs to the database thread running it). Statements
/// use `$1`, `$2`… parameters on both engines and are prepared once per connection.
public struct SQLContext {
    let connection: any SQLConnection

    /// The time the operation runs at, in milliseconds since the Unix epoch (from the store's clock).
    public let now: Int64

    /// The engine behind the connection.
    public var dialect: SQLDialect { connection.dialect }

    /// The row id of the row the last INSERT on this connection added (SQLite only; nil elsewhere).
    public var lastInsertRowID: Int64? { connection.lastInsertRowID }

    /// Runs a statement and returns the number of rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> Int {
        try connection.execute(sql, parameters)
    }

    /// Runs a query and decodes every row with `decode`.
    public func query<T>(_ sql: String, _ parameters: [SQLValue] = [], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try connection.query(sql, parameters) { row in rows.append(try decode(row)) }
        return rows
    }

    /// Runs a query and decodes its first row, or returns nil when there is none.
    public func queryFirst<T>(_ sql: String, _ parameters: [SQLValue] = [], _ decode: (any SQLRow) throws -> T) throws -> T? {
        var first: T?
        try connection.query(sql, parameters) { row in
            if first == nil { first = try decode(row) }
        }
        return first
    }

    /// Runs `body` inside a nested savepoint: when it throws, its writes are undone and the error rethrown,
    /// while the surrounding transaction stays usable.
    public func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        try connection.run("SAVEPOINT parley_nested")
        do {
            let value = try body()
            try connection.run("RELEASE SAVEPOINT parley_nested")
            return value
        } catch {
            try connection.run("ROLLBACK TO SAVEPOINT parley_nested")
            try connection.run("RELEASE SAVEPOINT parley_nested")
            throw error
        }
    }
}
