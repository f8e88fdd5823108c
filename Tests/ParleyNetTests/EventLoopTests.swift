import Glibc
import Synchronization
import Testing

@testable import ParleyNet

@Suite("Event loops", .serialized)
struct EventLoopTests {
    @Test("execute from another thread runs on the loop", arguments: SelectorBackend.allCases)
    func executeFromOtherThread(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 2, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let seen = Collector<Bool>()
        for loop in group.loops {
            #expect(!loop.inEventLoop)
            loop.execute { seen.append(loop.inEventLoop && EventLoop.current === loop) }
        }
        #expect(seen.wait(count: 2) == [true, true])
    }

    @Test("tasks submitted from one thread run in order", arguments: SelectorBackend.allCases)
    func taskOrder(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 1, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let order = Collector<Int>()
        let loop = group.loops[0]
        for i in 0..<1000 { loop.execute { order.append(i) } }
        #expect(order.wait(count: 1000) == Array(0..<1000))
    }

    @Test("a loop hops work to another loop and back", arguments: SelectorBackend.allCases)
    func crossLoopExecute(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 2, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let (a, b) = (group.loops[0], group.loops[1])
        let trail = Collector<String>()
        a.execute {
            trail.append("a:\(a.inEventLoop)")
            b.execute {
                trail.append("b:\(b.inEventLoop && !a.inEventLoop)")
                a.execute { trail.append("back:\(a.inEventLoop)") }
            }
        }
        #expect(trail.wait(count: 3) == ["a:true", "b:true", "back:true"])
    }

    @Test("timers fire in deadline order and cancelled timers never fire", arguments: SelectorBackend.allCases)
    func timerOrderAndCancel(backend: SelectorBackend) throws {
        let group = try EventLoopGroup(threads: 1, backend: backend, logger: .silent)
        defer { group.shutdownAndWait() }
        let loop = group.loops[0]
        let fired = Collector<String>()
        loop.schedule(after: .milliseconds(60)) { fired.append("60") }
        let cancelledRemotely = loop.schedule(after: .milliseconds(20)) { fired.append("cancelled-remote") }
        loop.schedule(after: .milliseconds(10)) { fired.append("10") }
        loop.schedule(after: .milliseconds(30)) { fired.append("30") }
        cancelledRemotely.cancel()
        loop.execute {
            let local = loop.schedule(after: .milliseconds(40)) { fired.append("cancelled-local") }
            local.cancel()
            #expect(local.isCancelled)
            #expect(loop.timers.count == 3)  // removed at once, not left to expire
        }
        #expect(fired.wait(count: 3) == ["10", "30", "60"])
        #expect(cancelledRemotely.isCancelled)
    }

    @Test("equal deadlines fire in scheduling order")
    func timerTies() throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let loop = group.loops[0]
        let fired = Collector<Int>()
        loop.execute {
            let deadline = MonotonicClock.now() + 5_000_000
            for i in 0..<50 { _ = loop.scheduleLocal(deadline: deadline) { fired.append(i) } }
        }
        #expect(fired.wait(count: 50) == Array(0..<50))
    }

    @Test("next() hands out loops round robin")
    func roundRobin() throws {
        let group = try EventLoopGroup(threads: 3, logger: .silent)
        defer { group.shutdownAndWait() }
        let picks = (0..<6).map { _ in group.next().index }
        #expect(picks == [0, 1, 2, 0, 1, 2])
    }

    @Test("stopping a loop closes its connections and joins its thread")
    func shutdownClosesConnections() throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        let closed = Collector<String>()
        let server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = EchoHandler(closed: closed)
        }
        let client = try RawClient(port: server.localAddress.port)
        client.send("hi")
        #expect(client.read(count: 2) == Array("hi".utf8))
        group.shutdownAndWait()
        #expect(closed.wait(count: 1) == [NetError.Code.closed.rawValue])
        #expect(client.peerClosed())
    }
}
