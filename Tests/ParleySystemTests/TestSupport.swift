import Foundation
import Glibc
import ParleySystem
import Synchronization

/// Violation messages collected from any thread.
final class Reports: Sendable {
    private let messages = Mutex<[String]>([])
    func add(_ message: String) { messages.withLock { $0.append(message) } }
    var all: [String] { messages.withLock { $0 } }
}

/// Runs `body` on a fresh thread and waits for it.
func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    done.wait()
}

/// A new pipe whose read end does not block, as numbers to adopt (a tuple cannot hold
/// non-copyable values).
func makePipe() throws -> (reader: Int32, writer: Int32) {
    var fds: [Int32] = [-1, -1]
    _ = try SystemCall.retrying("pipe") { pipe(&fds) }
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    return (fds[0], fds[1])
}

extension FileDescriptor {
    borrowing func makeNonBlocking() {
        _ = withRawValue { fcntl($0, F_SETFL, fcntl($0, F_GETFL) | O_NONBLOCK) }
    }
}
