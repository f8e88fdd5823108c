#if canImport(Glibc)
import Foundation
import Glibc
import Testing

@testable import ParleyNet

/// Loops are started from wherever the server starts (a worker of Swift's pool, under
/// `parley serve`); their threads must run at the nice value the operator gave the process, not
/// at that worker's.
@Suite struct EventLoopThreadTests {
    private static let which = __priority_which_t(PRIO_PROCESS.rawValue)

    @Test func aLoopThreadTakesItsNameAndTheProcessNiceValueNotItsCreators() async throws {
        errno = 0
        let processNice = getpriority(Self.which, id_t(getpid()))
        try #require(errno == 0)
        let seen = await withCheckedContinuation { (done: CheckedContinuation<(name: String, nice: Int32), Never>) in
            // The creator runs three steps nicer than the process, as a pool worker does.
            let creator = Foundation.Thread {
                _ = setpriority(Self.which, 0, min(19, processNice + 3))
                guard let group = try? EventLoopGroup(threads: 1, logger: .silent) else {
                    done.resume(returning: ("", -100))
                    return
                }
                group.loops[0].execute {
                    done.resume(returning: (Self.currentThreadName(), getpriority(Self.which, 0)))
                    DispatchQueue.global().async { group.shutdownAndWait() }
                }
            }
            creator.start()
        }
        #expect(seen.name == "parley-loop0")
        // Going back below the creator's value needs privilege (root, as the test command runs).
        if geteuid() == 0 {
            #expect(seen.nice == processNice)
        }
    }

    private static func currentThreadName() -> String {
        guard let file = fopen("/proc/thread-self/comm", "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
        let bytes = buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
#endif
