/// Migration 13, PostgreSQL: message search (see SQLChatStore+SearchPostgres.swift).
extension Schema {
    static let searchPostgres = """
        SELECT 1
        """
}
