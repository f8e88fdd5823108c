/// Read access to the current row of a query result, by zero-based column index.
///
/// A row is only valid inside the closure it is handed to; copy values out.
public protocol SQLRow {
    /// Whether the column is NULL.
    func isNull(_ column: Int) -> Bool
    /// The column as a 64-bit integer (0 for NULL).
    func int64(_ column: Int) -> Int64
    /// The column as a double (0 for NULL).
    func double(_ column: Int) -> Double
    /// The column as text ("" for NULL).
    func text(_ column: Int) -> String
    /// The column as bytes (empty for NULL).
    func blob(_ column: Int) -> [UInt8]
}

extension SQLRow {
    /// The column as text, or nil for NULL.
    public func optionalText(_ column: Int) -> String? {
        isNull(column) ? nil : text(column)
    }

    /// The column as an integer, or nil for NULL.
    public func optionalInt64(_ column: Int) -> Int64? {
        isNull(column) ? nil : int64(column)
    }

    /// The column as an `Int`.
    public func int(_ column: Int) -> Int {
        Int(int64(column))
    }

    /// The column as an optional `Int`.
    public func optionalInt(_ column: Int) -> Int? {
        optionalInt64(column).map { Int($0) }
    }
}
