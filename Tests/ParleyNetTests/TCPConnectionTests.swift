import Glibc
import ParleyWire
import Synchronization
import Testing

@testable import ParleyNet

@Suite("TCP connections", .serialized)
struct TCPConnectionTests {
    @Test("echo over raw TCP with many clients", arguments: SelectorBackend.allCases, [TCPServer.Distribution.reusePort, .singleAcceptor])
    func echoManyClients(backend: SelectorBackend, distribution: TCPServer.Distribution) throws {
        let group = try EventLoopGroup(threads: 2, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0, distribution: distribution) { connection in
            connection.handler = EchoHandler()
        }
        let clients = try (0..<64).map { _ in try RawClient(port: server.localAddress.port) }
        for (i, client) in clients.enumerated() { client.send("hello \(i);") }
        for (i, client) in clients.enumerated() {
            let expected = Array("hello \(i);".utf8)
            #expect(client.read(count: expected.count) == expected)
        }
        // A large payload crosses many reads and partial writes and still arrives intact.
        let big = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let sender = clients[0]
        let reader = Mutex<[UInt8]>([])
        let done = Collector<Bool>()
        Thread.detach {
            reader.withLock { $0 = sender.read(count: big.count) }; done.append(true)
        }
        sender.send(big)
        done.wait(count: 1)
        #expect(reader.withLock { $0 } == big)
    }

    @Test("writes in one iteration go out in order in one batch")
    func batchedWritesKeepOrder() throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        final class Burst: ConnectionHandler {
            func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
                let shared = SharedBytes(Array("|shared|".utf8))
                for i in 0..<2000 {
                    connection.write(Array("\(i),".utf8))
                    if i % 500 == 0 { connection.write(shared) }
                }
                connection.close()
            }
        }
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { $0.handler = Burst() }
        let client = try RawClient(port: server.localAddress.port)
        client.send("go")
        let text = String(decoding: client.readToEnd(), as: UTF8.self)
        var expected = ""
        for i in 0..<2000 { expected += "\(i),"; if i % 500 == 0 { expected += "|shared|" } }
        #expect(text == expected)
    }

    @Test("a write with nothing queued goes to the kernel at once; only what it did not take is queued", arguments: [false, true])
    func directWriteQueuesOnlyTheRest(shared: Bool) throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        // Far more than a loopback socket buffer takes at once, so the first write is short.
        let big = [UInt8](unsafeUninitializedCapacity: 12 << 20) { buffer, count in
            for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i &* 131 &+ (i >> 16)) }
            count = buffer.count
        }
        let tail = Array("|tail".utf8)
        let queued = Collector<Int>()
        final class Writer: ConnectionHandler {
            let big: [UInt8], tail: [UInt8], shared: Bool, queued: Collector<Int>
            init(big: [UInt8], tail: [UInt8], shared: Bool, queued: Collector<Int>) {
                (self.big, self.tail, self.shared, self.queued) = (big, tail, shared, queued)
            }
            func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
                if shared { connection.write(SharedBytes(big)) } else { connection.write(big) }
                queued.append(connection.outboundBytes)
                queued.append(connection.isWriteBlocked ? 1 : 0)
                // The rest of a write the peer already has part of is not droppable output.
                queued.append(connection.discardQueuedOutput())
                connection.write(tail)
            }
        }
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            // A small send buffer makes the first write short on any host's TCP settings.
            var size: Int32 = 64 << 10
            _ = connection.withSocket { setsockopt($0, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
            connection.maxOutboundBytes = 64 << 20
            connection.handler = Writer(big: big, tail: tail, shared: shared, queued: queued)
        }
        let client = try RawClient(port: server.localAddress.port)
        client.send("go")
        let received = client.read(count: big.count + tail.count)
        let afterFirstWrite = queued.wait(count: 3)
        #expect(afterFirstWrite[0] > 0 && afterFirstWrite[0] < big.count, "the kernel took part of the write, the rest waits")
        #expect(afterFirstWrite[1] == 1, "a short write leaves the socket waiting for writability")
        #expect(afterFirstWrite[2] == 0, "nothing of a half-sent write is dropped as unsent")
        let intact =
            received.count == big.count + tail.count && received.prefix(big.count).elementsEqual(big)
            && received.suffix(tail.count).elementsEqual(tail)
        #expect(intact, "no byte lost or repeated where the direct write stopped (\(received.count) bytes)")
    }

    @Test("an empty write is a no-op and does not stall the connection", arguments: [false, true])
    func emptyWrite(shared: Bool) throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        final class Writer: ConnectionHandler {
            let shared: Bool
            init(shared: Bool) { self.shared = shared }
            func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
                connection.write(Array("answer".utf8))
                // Second in the pass, so it would be queued: a zero-length chunk left alone in
                // the queue once made the end-of-pass flush loop forever.
                if shared { connection.write(SharedBytes([])) } else { connection.write([UInt8]()) }
            }
        }
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { $0.handler = Writer(shared: shared) }
        let client = try RawClient(port: server.localAddress.port)
        client.send("1")
        #expect(client.read(count: 6) == Array("answer".utf8))
        client.send("2")
        #expect(client.read(count: 6) == Array("answer".utf8), "the loop is still serving the connection")
    }

    @Test("a peer that does not read trips the outbound bound; others are unaffected", arguments: SelectorBackend.allCases)
    func outboundOverflow(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 2, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let overflowed = Collector<Int>()
        final class Flood: ConnectionHandler {
            let overflowed: Collector<Int>
            init(_ overflowed: Collector<Int>) { self.overflowed = overflowed }
            func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
                if bytes.first == UInt8(ascii: "F") {
                    // Keep writing one shared 64 KiB chunk until the bound refuses.
                    let chunk = SharedBytes([UInt8](repeating: 0x41, count: 65536))
                    for _ in 0..<4096 where connection.write(chunk) {}
                } else {
                    connection.write(bytes)
                }
            }
            func connectionDidExceedOutboundLimit(_ connection: Connection) {
                overflowed.append(connection.outboundBytes)
                connection.abort(NetError(.outboundOverflow, "test"))
            }
        }
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.maxOutboundBytes = 256 * 1024
            connection.handler = Flood(overflowed)
        }
        let stalled = try RawClient(port: server.localAddress.port)
        let healthy = try RawClient(port: server.localAddress.port)
        stalled.send("F")
        let queued = overflowed.wait(count: 1)
        #expect(queued.count == 1)
        #expect(queued.first.map { $0 <= 256 * 1024 } == true)
        healthy.send("still here")
        #expect(healthy.read(count: 10) == Array("still here".utf8))
        #expect(stalled.peerClosed())
    }

    @Test("idle connections are closed after the idle timeout", arguments: SelectorBackend.allCases)
    func idleTimeout(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 1, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let closed = Collector<String>()
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = EchoHandler(closed: closed)
            connection.idleTimeout = .milliseconds(150)
        }
        let client = try RawClient(port: server.localAddress.port)
        client.send("x")
        #expect(client.read(count: 1) == [UInt8(ascii: "x")])
        #expect(client.peerClosed())
        #expect(closed.wait(count: 1) == [NetError.Code.timedOut.rawValue])
    }

    @Test("a peer half-closing gets the rest of its answer, then the connection closes")
    func halfClose() throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let closed = Collector<String>()
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = EchoHandler(closed: closed)
        }
        let client = try RawClient(port: server.localAddress.port)
        client.send("last words")
        shutdown(client.fd, Int32(SHUT_WR))
        #expect(client.readToEnd() == Array("last words".utf8))
        #expect(closed.wait(count: 1) == ["ok"])
    }

    @Test("a reset from the peer is reported as connection reset")
    func peerReset() throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let closed = Collector<String>()
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = EchoHandler(closed: closed)
        }
        do {
            let client = try RawClient(port: server.localAddress.port)
            client.send("a")
            _ = client.read(count: 1)
            var linger = linger(l_onoff: 1, l_linger: 0)  // close() sends RST
            setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        #expect(closed.wait(count: 1) == [NetError.Code.connectionReset.rawValue])
    }

    @Test("outgoing connections: success and refusal", arguments: SelectorBackend.allCases)
    func outgoingConnect(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 2, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { $0.handler = EchoHandler() }
        final class Probe: ConnectionHandler {
            let got: Collector<String>
            init(_ got: Collector<String>) { self.got = got }
            func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
                got.append(String(decoding: bytes, as: UTF8.self))
                connection.close()
            }
        }
        let got = Collector<String>()
        let loop = group.loops[1]
        let address = server.localAddress
        loop.execute {
            Connection.connect(to: address, on: loop) { result in
                guard case .success(let connection) = result else { got.append("failed"); return }
                connection.handler = Probe(got)
                connection.write(Array("ping".utf8))
            }
        }
        #expect(got.wait(count: 1) == ["ping"])

        // A port that is bound but not listening refuses connections.
        let reserved = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(reserved) }
        var bound = sockaddr_in()
        bound.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &bound.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(reserved, pointer, length)
                return getsockname(reserved, pointer, &length)
            }
        }
        let deadPort = Int(UInt16(bigEndian: bound.sin_port))
        let refused = Collector<String>()
        group.loops[0].execute {
            Connection.connect(to: SocketAddress(host: "127.0.0.1", port: deadPort)!, on: group.loops[0]) { result in
                if case .failure(let error) = result { refused.append(error.code.rawValue) } else { refused.append("connected") }
            }
        }
        #expect(refused.wait(count: 1) == [NetError.Code.connectionRefused.rawValue])
    }

    @Test("one shared buffer fans out to many connections")
    func sharedFanOut() throws {
        let group = try EventLoopGroup(threads: 2, logger: .silent)
        defer { group.shutdownAndWait() }
        let registry = Mutex<[Connection]>([])
        let accepted = Collector<Bool>()
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = EchoHandler()
            registry.withLock { $0.append(connection) }
            accepted.append(true)
        }
        let clients = try (0..<40).map { _ in try RawClient(port: server.localAddress.port) }
        accepted.wait(count: clients.count)
        let frame = SharedBytes(Array("broadcast!".utf8))
        let connections = registry.withLock { $0 }
        for connection in connections {
            connection.loop.execute { connection.write(frame) }
        }
        for client in clients { #expect(client.read(count: 10) == Array("broadcast!".utf8)) }
    }
}

/// Minimal detached thread for tests that need a concurrent blocking reader.
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        pthread_detach(thread)
    }
}
