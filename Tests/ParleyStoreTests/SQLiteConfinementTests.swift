import Foundation
import ParleySystem
import Synchronization
import Testing

@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

#if DEBUG
/// A SQLite connection is opened with `SQLITE_OPEN_NOMUTEX`, so it must stay on its thread:
/// debug builds check each statement, observed here instead of stopping the process.
@Suite("SQLite connection confinement", .serialized)
struct SQLiteConfinementTests {
    @Test("a statement from another thread is reported; on the opening thread it is not")
    func statementOffThreadIsReported() throws {
        let scratch = try ScratchDatabase("confinement")
        defer { scratch.remove() }
        let connection = try SQLiteConnection(path: scratch.path, role: .reader)
        let seen = Mutex<[String]>([])
        try ThreadConfinement.withViolationHandler({ message in seen.withLock { $0.append(message) } }) {
            _ = try connection.execute("SELECT 1", [])
            #expect(seen.withLock { $0 }.isEmpty)
            let shared = UncheckedBox(connection)
            joinedThread { _ = try? shared.value.execute("SELECT 1", []) }
        }
        #expect(seen.withLock { $0 } == ["SQLiteConnection at \(scratch.path) used off its owning thread"])
    }
}

/// Hands a non-Sendable value to another thread that the test waits for.
private final class UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked: the test thread waits while the other thread uses the value.
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `body` on a fresh thread and waits for it.
private func joinedThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    done.wait()
}
#endif
