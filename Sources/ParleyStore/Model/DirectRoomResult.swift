/// The direct room of a pair of users, and whether this call created it.
public struct DirectRoomResult: Sendable, Equatable {
    /// The pair's one direct room.
    public var room: Room
    /// True when the room did not exist before this call.
    public var created: Bool

    /// Creates a result value.
    public init(room: Room, created: Bool) {
        self.room = room
        self.created = created
    }
}
