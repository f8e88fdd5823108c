import ParleyNet
import Synchronization
import Testing

@testable import ParleyServer

/// What a signal asks before the server listens waits for it, then runs on the loop in the
/// order the signals came; after the start it runs at once.
@Suite struct StartupSignalGateTests {
    @Test func actionsWaitForTheStartThenRunInOrderOnTheLoop() async throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let loop = group.loops[0]
        let gate = StartupSignalGate()
        let ran = Mutex<[String]>([])
        gate.run { ran.withLock { $0.append(loop.inEventLoop ? "term on loop" : "term elsewhere") } }
        gate.run { ran.withLock { $0.append("hup") } }
        try await Task.sleep(for: .milliseconds(20))
        #expect(ran.withLock { $0 }.isEmpty, "nothing runs before the server listens")

        gate.open(on: loop)
        while ran.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(ran.withLock { $0 } == ["term on loop", "hup"])

        gate.run { ran.withLock { $0.append("after") } }
        #expect(ran.withLock { $0 }.last == "after", "once open, at once")
    }
}
