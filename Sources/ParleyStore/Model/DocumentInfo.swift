/// A collaborative document's metadata (its content lives in ``DocumentContent``).
public struct DocumentInfo: Sendable, Hashable {
    /// The document's id, unique within its app.
    public var id: String
    /// The document's name, unique within its owner room (or among access-list documents).
    public var name: String
    /// The room whose members may edit the document, or nil when ``accessList`` decides.
    public var ownerRoomID: String?
    /// The users who may edit a document without an owner room, by ascending id.
    public var accessList: [String]
    /// The user who created the document.
    public var createdBy: String
    /// When the document was created (ms since the Unix epoch).
    public var createdAt: Int64
    /// When the document last changed: metadata, or content appended (ms since the Unix epoch).
    public var updatedAt: Int64

    /// Creates a value; the store makes these, tests and services may too.
    public init(
        id: String, name: String, ownerRoomID: String?, accessList: [String], createdBy: String,
        createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.name = name
        self.ownerRoomID = ownerRoomID
        self.accessList = accessList
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
