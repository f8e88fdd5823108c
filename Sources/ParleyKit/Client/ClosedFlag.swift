import Synchronization

/// Set once when a client is closed; requests already under way and new ones check it, so
/// nothing is sent for a client the app has given up.
final class ClosedFlag: Sendable {
    private let closed = Atomic<Bool>(false)

    var isClosed: Bool { closed.load(ordering: .acquiring) }

    func close() { closed.store(true, ordering: .releasing) }

    /// Throws ``ParleyError/Code/closed`` once closed.
    func check() throws(ParleyError) {
        if isClosed { throw ParleyError(.closed, "the client is closed") }
    }
}
