import ParleyNet
import Synchronization

/// A loopback server that reads requests and never answers them: it counts the request heads
/// that arrived and the connections the client side ended.
final class SilentHTTPServer: Sendable {
    let group: EventLoopGroup
    let server: TCPServer
    private let tally: Tally

    /// What the server saw; shared with the loop's handlers.
    final class Tally: Sendable {
        let counts = Mutex((heads: 0, ended: 0))
    }

    init() throws {
        group = try EventLoopGroup(threads: 1, logger: .silent)
        let tally = Tally()
        self.tally = tally
        server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = Handler(tally: tally)
        }
    }

    var url: String { "http://127.0.0.1:\(server.localAddress.port)" }
    /// Request heads received so far.
    var heads: Int { tally.counts.withLock { $0.heads } }
    /// Connections the peer closed or reset.
    var ended: Int { tally.counts.withLock { $0.ended } }

    /// Waits (politely) until `condition` holds.
    func wait(until condition: (SilentHTTPServer) -> Bool) async throws {
        while !condition(self) { try await Task.sleep(for: .milliseconds(5)) }
    }

    func stop() {
        server.stop()
        group.shutdownAndWait()
    }

    private final class Handler: ConnectionHandler {
        let tally: Tally
        private var recent: [UInt8] = []

        init(tally: Tally) { self.tally = tally }

        func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                recent.append(byte)
                if recent.count > 4 { recent.removeFirst() }
                if recent == [13, 10, 13, 10] { tally.counts.withLock { $0.heads += 1 } }
            }
        }

        func connectionDidReachEOF(_ connection: Connection) { connection.close() }

        func connection(_ connection: Connection, didCloseWith error: NetError?) {
            tally.counts.withLock { $0.ended += 1 }
        }
    }
}
