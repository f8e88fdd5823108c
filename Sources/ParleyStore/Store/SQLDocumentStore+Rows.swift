/// Row decoding, access lists and argument checks of the document store.
extension SQLDocumentStore {
    static var qualifiedColumns: String {
        documentColumns.split(separator: ",").map { "d.\($0.trimmingSpaces())" }.joined(separator: ", ")
    }

    static func decodeDocument(_ row: any SQLRow) -> DocumentInfo {
        DocumentInfo(
            id: row.text(0), name: row.text(1), ownerRoomID: row.optionalText(2), accessList: [],
            createdBy: row.text(3), createdAt: row.int64(4), updatedAt: row.int64(5))
    }

    static func fetchDocument(_ context: SQLContext, app: String, id: String) throws -> DocumentInfo? {
        guard
            var info = try context.queryFirst(
                "SELECT \(documentColumns) FROM documents WHERE app_id = $1 AND id = $2",
                [.text(app), .text(id)], decodeDocument)
        else { return nil }
        info.accessList = try fetchAccess(context, app: app, id: id, owned: info.ownerRoomID != nil)
        return info
    }

    static func fetchAccess(_ context: SQLContext, app: String, id: String, owned: Bool) throws -> [String] {
        guard !owned else { return [] }
        return try context.query(
            "SELECT user_id FROM document_access WHERE app_id = $1 AND document_id = $2 ORDER BY user_id",
            [.text(app), .text(id)]
        ) { $0.text(0) }
    }

    static func insertAccess(_ context: SQLContext, app: String, id: String, users: [String]) throws {
        for user in users {
            try context.execute(
                "INSERT INTO document_access (app_id, document_id, user_id) VALUES ($1, $2, $3)",
                [.text(app), .text(id), .text(user)])
        }
    }

    func validate(_ document: NewDocument) throws(StoreError) {
        if let id = document.id { try validateIdentifier(id, "document id") }
        try validateIdentifier(document.name, "document name")
        try validateIdentifier(document.createdBy, "creator id")
        if let room = document.ownerRoomID { try validateIdentifier(room, "owner room id") }
        try validateAccessList(document.accessList)
    }

    func validateAccessList(_ users: [String]) throws(StoreError) {
        guard users.count <= Self.maxAccessListSize else {
            throw StoreError(.invalidArgument, "an access list may hold at most \(Self.maxAccessListSize) users")
        }
        for user in users { try validateIdentifier(user, "user id") }
    }

    private func validateIdentifier(_ value: String, _ what: String) throws(StoreError) {
        guard !value.isEmpty else { throw StoreError(.invalidArgument, "\(what) must not be empty") }
        guard value.utf8.count <= limits.shortTextCharacters else {
            throw StoreError(.invalidArgument, "\(what) is longer than \(limits.shortTextCharacters) bytes")
        }
    }
}
