/// Migration 13, SQLite: message search (see SQLChatStore+SearchSQLite.swift).
extension Schema {
    static let searchSQLite = """
        SELECT 1
        """
}
