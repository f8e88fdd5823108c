import ParleyChat
import ParleyDocs
import ParleyStore
import ParleyText
import ParleyWire

/// The REST reader of room documents: each app's documents service, reading the server
/// replica (the chat service has checked the caller's room access).
struct RoomDocumentsReader: RoomDocumentReader {
    let services: [String: DocumentsService]

    func content(app: String, room: String, name: String) async throws -> (id: String, content: JSONValue)? {
        try await read(app: app, room: room, name: name) { info, replica in
            let content = replica.content()
            let json = JSONObject(content.keys.sorted().map { (key: $0, value: content[$0]!.jsonValue) })
            return (info.id, JSONValue.object(json))
        }
    }

    func update(app: String, room: String, name: String) async throws -> [UInt8]? {
        try await read(app: app, room: room, name: name) { _, replica in replica.encodeStateAsUpdate() }
    }

    private func read<T: Sendable>(
        app: String, room: String, name: String,
        _ body: @escaping @Sendable (DocumentInfo, YDocument) -> T
    ) async throws -> T? {
        guard let service = services[app] else { return nil }
        do {
            return try await service.readRoomDocument(name: name, room: room, body)
        } catch {
            switch error.code {
            case .notFound: return nil
            default: throw ChatError(.unavailable, "the document cannot be read now: \(error.code.rawValue)")
            }
        }
    }
}
