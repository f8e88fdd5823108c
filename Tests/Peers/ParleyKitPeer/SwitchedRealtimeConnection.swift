import ParleyKit
import Synchronization

/// A realtime connection that can be cut: from then on nothing more arrives or leaves, the
/// app sees it closed with 1006, and the real socket is closed.
final class SwitchedRealtimeConnection: RealtimeConnection {
    let frames: AsyncStream<RealtimeFrame>
    private let sink: AsyncStream<RealtimeFrame>.Continuation
    private let inner: any RealtimeConnection
    private let isCut = Mutex(false)

    init(inner: any RealtimeConnection) {
        self.inner = inner
        (frames, sink) = AsyncStream<RealtimeFrame>.makeStream()
    }

    /// Forwards the real connection's frames until it ends or is cut; then calls `ended`.
    func start(ended: @escaping @Sendable () -> Void) {
        Task {
            for await frame in inner.frames where !forward(frame) { break }
            isCut.withLock { cut in
                if !cut { sink.finish() }
                cut = true
            }
            ended()
        }
    }

    /// Passes a frame on unless cut; checked and yielded under the lock so nothing slips out after a cut.
    private func forward(_ frame: RealtimeFrame) -> Bool {
        isCut.withLock { cut in
            if !cut { sink.yield(frame) }
            return !cut
        }
    }

    /// Drops the connection as a network failure would.
    func cut() {
        let first = isCut.withLock { cut in
            defer { cut = true }
            guard !cut else { return false }
            sink.yield(.closed(code: 1006, reason: "network is off"))
            sink.finish()
            return true
        }
        if first { inner.close(code: 1000) }
    }

    func send(_ text: [UInt8]) {
        guard !isCut.withLock({ $0 }) else { return }
        inner.send(text)
    }

    func close(code: Int) {
        guard !isCut.withLock({ $0 }) else { return }
        inner.close(code: code)
    }
}
