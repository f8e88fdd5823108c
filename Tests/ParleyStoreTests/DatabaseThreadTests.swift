#if canImport(Glibc)
import Foundation
import Glibc
import Testing
@testable import ParleyStore

/// Database threads are started from wherever a store is opened (usually a worker of Swift's
/// pool); they must not inherit that thread's name and nice value.
@Suite struct DatabaseThreadTests {
    private static let which = __priority_which_t(PRIO_PROCESS.rawValue)

    @Test func aDatabaseThreadTakesItsNameAndTheProcessNiceValueNotItsCreators() async throws {
        errno = 0
        let processNice = getpriority(Self.which, id_t(getpid()))
        try #require(errno == 0)
        let seen = await withCheckedContinuation { (done: CheckedContinuation<(name: String, nice: Int32), Never>) in
            // The creator runs three steps nicer than the process, as a pool worker may.
            let creator = Thread {
                _ = setpriority(Self.which, 0, min(19, processNice + 3))
                DatabaseThread.start(name: "parley-test-database-thread") {
                    done.resume(returning: (Self.currentThreadName(), getpriority(Self.which, 0)))
                }
            }
            creator.start()
        }
        #expect(seen.name == "parley-test-dat", "names keep their first 15 bytes")
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
