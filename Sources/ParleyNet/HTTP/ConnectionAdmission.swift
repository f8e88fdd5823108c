import Synchronization

/// Counts a server's open connections, in all and per client address, and says which new
/// ones to refuse. Any thread: the total is an atomic, the per-address table one lock taken
/// once when a connection opens and once when it closes (never per request or message).
final class ConnectionAdmission: Sendable {
    /// Why a connection was refused.
    enum Refusal: Error, Sendable, Equatable {
        /// The server holds `maxConnections` already.
        case serverFull
        /// The client's address (or IPv6 /64) holds `maxConnectionsPerAddress` already.
        case addressFull
    }

    /// What to undo when an admitted connection closes.
    struct Ticket: Sendable {
        fileprivate let key: ClientAddressKey?
    }

    private let maxConnections: Int?
    private let maxPerAddress: Int?
    private let limitLoopback: Bool
    private let total = Atomic<Int>(0)
    private let perAddress = Mutex<[ClientAddressKey: Int]>([:])
    private let refusedFull = Atomic<Int>(0)
    private let refusedAddress = Atomic<Int>(0)

    init(maxConnections: Int?, maxPerAddress: Int?, limitLoopback: Bool) {
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
        self.limitLoopback = limitLoopback
    }

    /// Open connections admitted and not yet released.
    var openCount: Int { total.load(ordering: .relaxed) }
    /// Connections refused so far, by reason.
    var refusedCount: (serverFull: Int, addressFull: Int) {
        (refusedFull.load(ordering: .relaxed), refusedAddress.load(ordering: .relaxed))
    }

    /// Counts a new connection from `address`, or says why it must be refused. With
    /// `perAddress` false (a trusted proxy's connection) only the total counts; the client it
    /// forwards for is counted per request (``ForwardedAddressHold``).
    func admit(_ address: SocketAddress?, perAddress: Bool = true) -> Result<Ticket, Refusal> {
        let count = total.add(1, ordering: .relaxed).newValue
        if let maxConnections, count > maxConnections {
            total.subtract(1, ordering: .relaxed)
            refusedFull.add(1, ordering: .relaxed)
            return .failure(.serverFull)
        }
        guard perAddress, let address, let key = limitedKey(address) else {
            return .success(Ticket(key: nil))
        }
        guard take(key) else {
            total.subtract(1, ordering: .relaxed)
            return .failure(.addressFull)
        }
        return .success(Ticket(key: key))
    }

    /// Forgets a connection admitted with `ticket` (it closed).
    func release(_ ticket: Ticket) {
        total.subtract(1, ordering: .relaxed)
        guard let key = ticket.key else { return }
        give(key)
    }

    /// What `address` is counted by, or nil when it is not capped (no per-address cap, or a
    /// loopback client with loopback exempt).
    func limitedKey(_ address: SocketAddress) -> ClientAddressKey? {
        guard maxPerAddress != nil, let key = ClientAddressKey(address), limitLoopback || !key.isLoopback else { return nil }
        return key
    }

    /// Counts one more connection of `key`; false (and a refusal counted) when it holds the most already.
    func take(_ key: ClientAddressKey) -> Bool {
        guard let maxPerAddress else { return true }
        let admitted = perAddress.withLock { table in
            let held = table[key, default: 0]
            guard held < maxPerAddress else { return false }
            table[key] = held + 1
            return true
        }
        if !admitted { refusedAddress.add(1, ordering: .relaxed) }
        return admitted
    }

    /// Counts one connection of `key` fewer.
    func give(_ key: ClientAddressKey) {
        perAddress.withLock { table in
            let held = table[key, default: 1] - 1
            if held <= 0 { table.removeValue(forKey: key) } else { table[key] = held }
        }
    }
}
