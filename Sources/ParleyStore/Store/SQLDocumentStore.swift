/// The `DocumentStore` on an SQL database (SQLite or PostgreSQL), sharing the database and
/// its group-commit writer with the chat store.
public final class SQLDocumentStore: DocumentStore {
    /// The most users an access list may hold.
    public static let maxAccessListSize = 1_000

    /// The database underneath.
    public let database: StoreDatabase
    /// The limits checked on writes (names and ids use `shortTextCharacters`).
    public let limits: StoreLimits

    /// A document store over an already opened database.
    public init(database: StoreDatabase, limits: StoreLimits = StoreLimits()) {
        self.database = database
        self.limits = limits
    }

    static let documentColumns = "id, name, owner_room_id, created_by, created_at, updated_at"

    public func createDocument(app: String, _ document: NewDocument) async throws -> DocumentInfo {
        try validate(document)
        let id = document.id ?? IdentifierGenerator.make()
        let accessList = document.ownerRoomID == nil ? Array(Set(document.accessList + [document.createdBy])).sorted() : []
        return try await database.write { context in
            try StoreError.remapping(.foreignKeyViolation, to: StoreError(.notFound, "room \(document.ownerRoomID ?? "") not found")) {
                try context.execute(
                    """
                    INSERT INTO documents (app_id, id, name, scope, owner_room_id, created_by, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
                    """,
                    [
                        .text(app), .text(id), .text(document.name), .text(document.ownerRoomID ?? ""),
                        .text(document.ownerRoomID), .text(document.createdBy), .integer(context.now)
                    ])
            }
            try Self.insertAccess(context, app: app, id: id, users: accessList)
            return DocumentInfo(
                id: id, name: document.name, ownerRoomID: document.ownerRoomID, accessList: accessList,
                createdBy: document.createdBy, createdAt: context.now, updatedAt: context.now)
        }
    }

    public func document(app: String, id: String) async throws -> DocumentInfo {
        try await database.read { context in
            guard let info = try Self.fetchDocument(context, app: app, id: id) else {
                throw StoreError(.notFound, "document \(id) not found")
            }
            return info
        }
    }

    public func document(app: String, named name: String, ownerRoom: String?) async throws -> DocumentInfo? {
        try await database.read { context in
            let found = try context.queryFirst(
                """
                SELECT \(Self.documentColumns) FROM documents WHERE app_id = $1 AND scope = $2 AND name = $3
                """, [.text(app), .text(ownerRoom ?? ""), .text(name)], Self.decodeDocument)
            guard var info = found else { return nil }
            info.accessList = try Self.fetchAccess(context, app: app, id: info.id, owned: info.ownerRoomID != nil)
            return info
        }
    }

    public func documents(app: String, ownerRoom: String, after: String?, limit: Int) async throws -> [DocumentInfo] {
        let limit = min(max(limit, 1), limits.historyPage)
        return try await database.read { context in
            try context.query(
                """
                SELECT \(Self.documentColumns) FROM documents WHERE app_id = $1 AND owner_room_id = $2 AND id > $3
                ORDER BY id LIMIT $4
                """, [.text(app), .text(ownerRoom), .text(after ?? ""), .int(limit)], Self.decodeDocument)
        }
    }

    public func documents(app: String, accessibleTo user: String, after: String?, limit: Int) async throws -> [DocumentInfo] {
        let limit = min(max(limit, 1), limits.historyPage)
        return try await database.read { context in
            let found = try context.query(
                """
                SELECT \(Self.qualifiedColumns) FROM document_access a
                JOIN documents d ON d.app_id = a.app_id AND d.id = a.document_id
                WHERE a.app_id = $1 AND a.user_id = $2 AND a.document_id > $3 ORDER BY a.document_id LIMIT $4
                """, [.text(app), .text(user), .text(after ?? ""), .int(limit)], Self.decodeDocument)
            return try found.map { info in
                var info = info
                info.accessList = try Self.fetchAccess(context, app: app, id: info.id, owned: false)
                return info
            }
        }
    }

    public func setAccessList(app: String, id: String, users: [String]) async throws -> DocumentInfo {
        try validateAccessList(users)
        let sorted = Array(Set(users)).sorted()
        return try await database.write { context in
            guard var info = try Self.fetchDocument(context, app: app, id: id) else {
                throw StoreError(.notFound, "document \(id) not found")
            }
            try context.execute("DELETE FROM document_access WHERE app_id = $1 AND document_id = $2", [.text(app), .text(id)])
            try Self.insertAccess(context, app: app, id: id, users: sorted)
            try context.execute(
                "UPDATE documents SET updated_at = $3 WHERE app_id = $1 AND id = $2",
                [.text(app), .text(id), .integer(context.now)])
            info.accessList = sorted
            info.updatedAt = context.now
            return info
        }
    }

    public func deleteDocument(app: String, id: String) async throws -> DocumentInfo {
        try await database.write { context in
            guard let info = try Self.fetchDocument(context, app: app, id: id) else {
                throw StoreError(.notFound, "document \(id) not found")
            }
            try context.execute("DELETE FROM documents WHERE app_id = $1 AND id = $2", [.text(app), .text(id)])
            return info
        }
    }
}
