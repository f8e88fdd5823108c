/// Watches a parked keep-alive connection: anything but silence (bytes nobody asked for,
/// the server's FIN, the idle timeout) ends it and takes it out of the pool. Loop-confined.
final class HTTPIdleConnectionHandler: ConnectionHandler {
    private weak var pool: HTTPConnectionPool?
    private let server: String

    init(pool: HTTPConnectionPool, server: String) {
        self.pool = pool
        self.server = server
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) { connection.abort() }

    func connectionDidReachEOF(_ connection: Connection) { connection.abort() }

    func connectionDidTimeOut(_ connection: Connection) { connection.abort() }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        pool?.remove(connection, server: server)
    }
}
