import Glibc
import ParleyImaging
import Synchronization
import Testing

@testable import ParleyChat

/// Thumbnails are made a bounded number at a time, on threads that are not the caller's.
@Suite struct ThumbnailWorkersTests {
    @Test func atMostTheLimitRunAtOnceAndEveryOneFinishes() async {
        let workers = ThumbnailWorkers(limit: 2)
        let counts = Concurrency()
        let finished = await withTaskGroup(of: Int.self) { group in
            for index in 0..<12 {
                group.addTask {
                    await workers.run {
                        counts.enter()
                        usleep(5_000)  // holds its slot a while, so that the others queue behind it
                        counts.leave()
                        return index
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(finished.sorted() == Array(0..<12))
        #expect(counts.state.withLock { $0.peak } <= 2)
        #expect(counts.state.withLock { $0.running } == 0)
    }

    @Test func theWorkRunsOnAThreadOfItsOwn() async {
        let workers = ThumbnailWorkers(limit: 1)
        let name = await workers.run { () -> String in
            // The running thread's name, as the kernel keeps it.
            guard let file = fopen("/proc/thread-self/comm", "r") else { return "" }
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 32)
            guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
            return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #expect(name == "parley-thumbs")
    }
}

/// How many bodies run at once, and the most that ever did.
private final class Concurrency: Sendable {
    let state = Mutex((running: 0, peak: 0))

    func enter() {
        state.withLock { state in
            state.running += 1
            state.peak = max(state.peak, state.running)
        }
    }

    func leave() { state.withLock { $0.running -= 1 } }
}
