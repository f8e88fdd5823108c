import ParleyWire

/// Reads a room's live documents for `GET /v1/rooms/{room_id}/docs/{name}` and `…/update`;
/// the server implements it over its documents service. The chat service checks the
/// caller's access to the room first, exactly as on every room route.
public protocol RoomDocumentReader: Sendable {
    /// The document's id and its content as JSON (each root type by name); nil when the
    /// room has no document called `name`. Throws a ``ChatError`` when it cannot be read.
    func content(app: String, room: String, name: String) async throws -> (id: String, content: JSONValue)?

    /// The document's whole state as one Yjs update (format v1); nil when the room has no
    /// document called `name`. Throws a ``ChatError`` when it cannot be read.
    func update(app: String, room: String, name: String) async throws -> [UInt8]?
}
