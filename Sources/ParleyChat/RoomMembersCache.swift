import Synchronization

/// The member ids of recently active rooms, so a message send does not read them back from
/// the database for its `room.activity` events, and a history page need not read the
/// caller's membership.
///
/// Correct under concurrent changes by a generation count: every write that may change
/// memberships calls `invalidate()` once it has finished (whether or not it succeeded), which
/// forgets everything and moves the generation on; a list read from the store is kept only
/// if no such write finished while it was being read. So once a membership change has been
/// answered, no request sees the old list. Bounded: at capacity an arbitrary room is dropped.
final class RoomMembersCache: Sendable {
    struct Key: Hashable {
        var app: String
        var room: String
    }

    /// What is known of one room.
    enum Members: Sendable, Equatable {
        /// Every member in the store's order (rooms up to the fan-out limit).
        case all(MemberList)
        /// More members than the cache keeps.
        case tooMany
    }

    /// A room's member ids, and their personal channels' names built once for every send's
    /// `room.activity` events.
    struct MemberList: Sendable, Equatable, ExpressibleByArrayLiteral {
        let ids: [String]
        let userChannels: [String]

        init(_ ids: [String]) {
            self.ids = ids
            self.userChannels = ids.map(ChatEvent.userChannel)
        }

        init(arrayLiteral ids: String...) { self.init(ids) }

        static func == (lhs: MemberList, rhs: MemberList) -> Bool { lhs.ids == rhs.ids }
    }

    private struct State {
        var generation: UInt64 = 0
        var rooms: [Key: Members] = [:]
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` rooms (0 keeps nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The room's members if known, and the generation to hand back to `store` after reading them.
    func lookup(_ key: Key) -> (members: Members?, generation: UInt64) {
        state.withLock { ($0.rooms[key], $0.generation) }
    }

    /// Keeps a list read from the store, unless memberships changed since `generation`.
    func store(_ key: Key, _ members: Members, readAt generation: UInt64) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.rooms.count >= capacity, state.rooms[key] == nil {
                state.rooms.remove(at: state.rooms.startIndex)
            }
            state.rooms[key] = members
        }
    }

    /// Forgets every room: a membership may have changed.
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.rooms.removeAll()
        }
    }

    /// How many rooms are cached (for tests).
    var count: Int { state.withLock { $0.rooms.count } }
}
