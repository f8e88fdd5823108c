/// One message row as the server stores it for a text message (the columns `appendMessage`
/// fills; id is the database's own).
struct RawRow {
    var app: String
    var room: String
    var seq: Int64
    var sender: String
    var clientID: String
    var parts: String
    var createdAt: Int64

    /// Columns bound per row, in the order of `values`.
    static let columnCount = 7

    /// The INSERT of `rows` rows (placeholders `$n` for PostgreSQL, `?n` for SQLite).
    static func insertStatement(rows: Int, placeholder: (Int) -> String) -> String {
        var sql = "INSERT INTO messages (app_id, room_id, seq, sender_id, client_id, parts, created_at) VALUES "
        for row in 0..<rows {
            if row > 0 { sql += ", " }
            sql += "(" + (1...columnCount).map { placeholder(row * columnCount + $0) }.joined(separator: ", ") + ")"
        }
        return sql
    }
}
