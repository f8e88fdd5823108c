import ParleyImaging
import ParleyPlatform
import Synchronization

/// Makes attachment thumbnails off the event loops and off Swift's cooperative threads:
/// each on a short-lived thread of its own, at most ``limit`` at a time (later ones wait their
/// turn in order), since decoding a large image takes whole milliseconds of CPU and its pixels.
final class ThumbnailWorkers: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// How many thumbnails are made at once.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        precondition(limit >= 1, "at least one thumbnail at a time")
        self.limit = limit
    }

    /// The thumbnail of a PNG, JPEG, GIF or WebP image by `thumbnailer`, or why there is none.
    func thumbnail(of bytes: [UInt8], by thumbnailer: Thumbnailer) async -> Result<Thumbnail, ImageError> {
        await run { Result { () throws(ImageError) in try thumbnailer.thumbnail(of: bytes) } }
    }

    /// Runs `body` on a thread of its own once fewer than ``limit`` bodies are running.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await acquire()
        defer { release() }
        return await withCheckedContinuation { continuation in
            Self.onNewThread { continuation.resume(returning: body()) }
        }
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.running < limit else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the slot to the longest waiter, if any, else frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread (inline if the system will not make one).
    private static func onNewThread(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                CurrentThread.adoptProcessDefaults(name: "parley-thumbs")
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        if status == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        }
    }
}
