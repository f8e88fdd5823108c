import Dispatch
import ParleyPlatform
import ParleySystem
import Synchronization

/// Writes log lines to standard error on a thread of its own, so an event loop never waits
/// for the log: when stderr is a pipe nobody reads (or a slow terminal), `write(2)` blocks,
/// and a loop that logged an access line would stop serving. Lines keep their order; past
/// `capacity` lines waiting, new ones are dropped and counted, and the count is written
/// with the next line that gets through.
final class LogWriter: Sendable {
    /// The process's writer.
    static let shared = LogWriter()

    private let queue = DispatchQueue(label: "parley.log")
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// Queues one line (with its newline).
    func write(_ line: String) {
        guard waiting.add(1, ordering: .relaxed).newValue <= capacity else {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 {
                Self.writeOut(
                    "time=\(Logger.timestamp()) level=warning component=log msg=\"log lines dropped: stderr was not keeping up\" count=\(lost)\n"
                )
            }
            Self.writeOut(line)
            waiting.subtract(1, ordering: .relaxed)
        }
    }

    /// Returns once every line queued before the call is written (before the process exits).
    func flush() {
        queue.sync {}
    }

    private static func writeOut(_ line: String) {
        // Standard error is not ours to own or close, so the call goes through `SystemCall` directly.
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                try? SystemCall.retrying("write") { Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard let n, n > 0 else { return }
            offset += n
        }
    }
}
