import Synchronization

/// Each user's token cutoff (the store's `tokensValidAfter`) as last read, so authenticating a
/// request costs a store read only the first time a user is seen.
///
/// A user deleted through this service is recorded at once (`record`), which also moves the
/// generation on: a cutoff read from the store while that deletion ran is not kept, as in
/// `RoomMembersCache`. Bounded: at capacity, a quarter of the entries go at once.
final class TokenCutoffs: Sendable {
    struct Key: Hashable {
        var app: String
        var user: String
    }

    /// What is known of one user.
    enum Cutoff: Sendable, Equatable {
        /// Every token of the user is honoured.
        case none
        /// Tokens issued before this time (milliseconds since the epoch) are refused.
        case at(Int64)
    }

    private struct State {
        var generation: UInt64 = 0
        var users: [Key: Cutoff] = [:]
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` users (0 keeps nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The user's cutoff if known, and the generation to hand back to `store`.
    func lookup(_ key: Key) -> (cutoff: Cutoff?, generation: UInt64) {
        state.withLock { ($0.users[key], $0.generation) }
    }

    /// Keeps a cutoff read from the store, unless a deletion was recorded since `generation`.
    func store(_ key: Key, _ cutoff: Cutoff, readAt generation: UInt64) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            Self.makeRoom(&state, for: key, capacity: capacity)
            state.users[key] = cutoff
        }
    }

    /// Records a cutoff this service just set (a deleted user).
    func record(_ key: Key, _ cutoff: Cutoff) {
        state.withLock { state in
            state.generation &+= 1
            guard capacity > 0 else { return }
            Self.makeRoom(&state, for: key, capacity: capacity)
            state.users[key] = cutoff
        }
    }

    /// Forgets what is known of a user (a cutoff may have changed but could not be read).
    func forget(_ key: Key) {
        state.withLock { state in
            state.generation &+= 1
            state.users[key] = nil
        }
    }

    private static func makeRoom(_ state: inout State, for key: Key, capacity: Int) {
        guard state.users.count >= capacity, state.users[key] == nil else { return }
        let target = capacity - max(1, capacity / 4)
        while state.users.count > target { state.users.remove(at: state.users.startIndex) }
    }

    /// Whether a token issued at `issuedAt` (seconds; nil when it has no `iat`) passes `cutoff`:
    /// only a token whose whole issuing second lies at or after the cutoff does.
    static func honours(_ cutoff: Cutoff, issuedAt: Int64?) -> Bool {
        guard case .at(let milliseconds) = cutoff else { return true }
        guard let issuedAt else { return false }
        return issuedAt * 1000 >= milliseconds
    }
}
