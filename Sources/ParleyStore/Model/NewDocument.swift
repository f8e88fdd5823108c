/// The fields of a document to create.
public struct NewDocument: Sendable, Hashable {
    /// The id to use, or nil for a generated one.
    public var id: String?
    /// The document's name, unique within its owner room (or among access-list documents).
    public var name: String
    /// The room whose members may edit it; nil for a document governed by ``accessList``.
    public var ownerRoomID: String?
    /// The users who may edit it when it has no owner room (the creator is added).
    public var accessList: [String]
    /// The creating user.
    public var createdBy: String

    /// A document owned by a room, or (with `ownerRoomID` nil) one with an access list.
    public init(id: String? = nil, name: String, ownerRoomID: String? = nil, accessList: [String] = [], createdBy: String) {
        self.id = id
        self.name = name
        self.ownerRoomID = ownerRoomID
        self.accessList = accessList
        self.createdBy = createdBy
    }
}
