import Glibc
import ParleySystem
import Synchronization
import Testing

@testable import ParleyNet

#if DEBUG
/// Debug builds check that a loop's connections are used on that loop, which their
/// `@unchecked Sendable` rests on; the violations are observed here instead of stopping the process.
@Suite("Loop confinement checks", .serialized)
struct LoopConfinementTests {
    @Test("a connection used from another thread is reported; on its loop it is not")
    func connectionOffLoopIsReported() throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let accepted = Collector<Connection>()
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = EchoHandler()
            accepted.append(connection)
        }
        let client = try RawClient(port: server.localAddress.port)
        let connection = try #require(accepted.wait(count: 1).first)
        let loop = connection.loop
        // Closed on its loop first, so the calls below change nothing whichever thread makes them.
        let closed = Collector<Bool>()
        loop.execute {
            connection.abort()
            closed.append(connection.isClosed)
        }
        #expect(closed.wait(count: 1) == [true])

        let seen = Mutex<[String]>([])
        ThreadConfinement.withViolationHandler({ message in seen.withLock { $0.append(message) } }) {
            let onLoop = Collector<Bool>()
            loop.execute {
                connection.write([1])
                connection.close()
                onLoop.append(true)
            }
            onLoop.wait(count: 1)
            #expect(seen.withLock { $0 }.isEmpty)
            #expect(!connection.write([1]))
            connection.pauseReading()
        }
        let messages = seen.withLock { $0 }
        #expect(messages.count == 2)
        #expect(messages.first?.hasPrefix("Connection.write used off its event loop") == true)
        #expect(messages.last?.hasPrefix("Connection.pauseReading used off its event loop") == true)
        _ = client
    }
}
#endif

@Suite("NetError from system calls")
struct NetErrorMappingTests {
    @Test("errno values map to the same network codes through the system-call layer")
    func errnoMapping() {
        let expected: [(Int32, NetError.Code)] = [
            (ECONNRESET, .connectionReset), (EPIPE, .brokenPipe), (ECONNREFUSED, .connectionRefused),
            (EADDRINUSE, .addressInUse), (ETIMEDOUT, .timedOut), (EMFILE, .tooManyOpenFiles),
            (ENFILE, .tooManyOpenFiles), (EINVAL, .invalidArgument), (ENOENT, .io), (EACCES, .io), (EIO, .io)
        ]
        for (value, code) in expected {
            let error = NetError(SystemCallError(call: "sendmsg", errno: value))
            #expect(error == NetError(code, errno: value, "sendmsg"))
        }
    }
}
