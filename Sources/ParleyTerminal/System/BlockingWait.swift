import CLinux
import ParleyPlatform
import Synchronization

/// Runs async work from synchronous code (the command line's entry) and blocks the calling
/// thread until it finishes. Never call it from a task: it parks a thread.
enum BlockingWait {
    static func run<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("pipe: \(String(cString: strerror(errno)))") }
        defer {
            close(fds[0])
            close(fds[1])
        }
        let box = Mutex<Value?>(nil)
        let writeFD = fds[1]
        Task {
            let value = await work()
            box.withLock { $0 = value }
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1)
        }
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) < 0 && errno == EINTR {}
        guard let value = box.withLock({ $0 }) else { fatalError("blocking work finished without a value") }
        return value
    }
}
