import ParleyStore
import ParleyText

/// Reading a room's document on the server replica, for the REST API (which checks the
/// caller's room access itself, as every room route does).
extension DocumentsService {
    /// Runs `body` on the server replica of the room's document called `name`; nil when the
    /// room has no document of that name (it is not created). No access check.
    public func readRoomDocument<T: Sendable>(
        name: String, room: String, _ body: @escaping @Sendable (DocumentInfo, YDocument) -> T
    ) async throws(DocumentsError) -> T? {
        let found: DocumentInfo?
        do {
            found = try await store.document(app: app, named: name, ownerRoom: room)
        } catch {
            throw DocumentsError(store: error)
        }
        guard let info = found else { return nil }
        return try await withOpenDocument(info.id) { document throws(DocumentsError) in
            try await document.read { body(info, $0) }
        }
    }
}
