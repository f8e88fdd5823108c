import ParleyStore
import Synchronization

/// Rooms' moderation state (slow mode, mutes, bans), so a send to an unmoderated room reads
/// nothing more than before.
///
/// Correct under concurrent changes the way `RoomMembersCache` is: every moderation write
/// calls `invalidate()` once it has finished, and a state read from the store is kept only if
/// no such write finished while it was being read. Other nodes' writes arrive as the cluster's
/// `memberships_changed` notice, which invalidates this cache too. Bounded: at capacity an
/// arbitrary room is dropped.
final class ModerationCache: Sendable {
    struct Key: Hashable {
        var app: String
        var room: String
    }

    private struct State {
        var generation: UInt64 = 0
        var rooms: [Key: RoomModeration] = [:]
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` rooms (0 keeps nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The room's state if known, and the generation to hand back to `store`.
    func lookup(_ key: Key) -> (moderation: RoomModeration?, generation: UInt64) {
        state.withLock { ($0.rooms[key], $0.generation) }
    }

    /// Keeps a state read from the store, unless moderation changed since `generation`.
    func store(_ key: Key, _ moderation: RoomModeration, readAt generation: UInt64) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.rooms.count >= capacity, state.rooms[key] == nil {
                state.rooms.remove(at: state.rooms.startIndex)
            }
            state.rooms[key] = moderation
        }
    }

    /// Forgets every room.
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.rooms.removeAll()
        }
    }
}
