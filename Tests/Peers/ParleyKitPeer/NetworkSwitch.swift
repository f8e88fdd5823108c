import ParleyKit
import Synchronization

/// The peer's simulated network: switched off, HTTP requests fail, realtime connects fail and
/// open realtime connections drop as if the link died (1006), the way a phone losing its
/// network looks to the SDK. The server sees the socket closed. It can also make the next
/// history reads fail as an overloaded server's 503 would.
final class NetworkSwitch: Sendable {
    private struct State {
        var isOn = true
        var nextID = 0
        var open: [Int: SwitchedRealtimeConnection] = [:]
        var historyFailures = 0
    }

    private let state = Mutex(State())

    /// Whether traffic flows.
    var isOn: Bool { state.withLock { $0.isOn } }

    /// Turns the network on or off; off drops every open realtime connection.
    func set(on: Bool) {
        let dropped: [SwitchedRealtimeConnection] = state.withLock { state in
            state.isOn = on
            guard !on else { return [] }
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for connection in dropped { connection.cut() }
    }

    /// Makes the next `count` history reads fail.
    func failHistory(_ count: Int) {
        state.withLock { $0.historyFailures = count }
    }

    /// Whether this history read is one to fail (counting it).
    func takeHistoryFailure() -> Bool {
        state.withLock { state in
            guard state.historyFailures > 0 else { return false }
            state.historyFailures -= 1
            return true
        }
    }

    /// Tracks an open connection so switching off can drop it; false (and it is dropped) when off.
    func register(_ connection: SwitchedRealtimeConnection) -> Int? {
        let id: Int? = state.withLock { state in
            guard state.isOn else { return nil }
            state.nextID += 1
            state.open[state.nextID] = connection
            return state.nextID
        }
        if id == nil { connection.cut() }
        return id
    }

    /// Forgets a connection that ended.
    func forget(_ id: Int) {
        state.withLock { _ = $0.open.removeValue(forKey: id) }
    }
}
