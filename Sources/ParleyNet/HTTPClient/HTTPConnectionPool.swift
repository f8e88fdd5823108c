import Synchronization

/// Idle keep-alive connections by server, so later requests skip the TCP handshake.
///
/// The list is shared under a lock; the connections themselves are touched only on their
/// loop (``take(_:on:)`` and ``park(_:server:)`` run there). A parked connection that the
/// server closes, that sends anything unasked, or that stays idle too long leaves the pool.
final class HTTPConnectionPool: Sendable {
    /// Most idle connections kept per server.
    let maximumPerServer: Int
    /// A parked connection is closed after this long unused (shorter than servers' keep-alive).
    let idleTimeout: Duration
    private let idle = Mutex<[String: [Connection]]>([:])

    init(maximumPerServer: Int, idleTimeout: Duration) {
        self.maximumPerServer = maximumPerServer
        self.idleTimeout = idleTimeout
    }

    deinit {
        let parked = idle.withLock { $0.values.flatMap { $0 } }
        for connection in parked { connection.loop.execute { connection.abort() } }
    }

    /// The most recently parked open connection to `server` on `loop`, removed from the pool. Loop thread.
    func take(_ server: String, on loop: EventLoop) -> Connection? {
        while let connection = idle.withLock({ list -> Connection? in
            guard let index = list[server]?.lastIndex(where: { $0.loop === loop }) else { return nil }
            return list[server]?.remove(at: index)
        }) {
            if connection.isOpen { return connection }
            connection.abort()
        }
        return nil
    }

    /// Keeps a connection whose exchange finished cleanly for the next request, or closes it
    /// when the pool for that server is full. Connection's loop thread.
    func park(_ connection: Connection, server: String) {
        let parked = idle.withLock { list in
            guard list[server, default: []].count < maximumPerServer else { return false }
            list[server, default: []].append(connection)
            return true
        }
        guard parked else {
            connection.abort()
            return
        }
        connection.handler = HTTPIdleConnectionHandler(pool: self, server: server)
        connection.idleTimeout = idleTimeout
    }

    /// Forgets a parked connection (it closed or misbehaved).
    func remove(_ connection: Connection, server: String) {
        idle.withLock { $0[server]?.removeAll { $0 === connection } }
    }

    /// How many idle connections the pool holds now.
    var idleCount: Int { idle.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
