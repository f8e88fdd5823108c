import Testing

@testable import ParleyDocs

@Suite struct YWebSocketBacklogTests {
    typealias Backlog = YWebSocketBacklog<Int>

    @Test func pausesAtTheMessageBoundAndResumesAtHalf() {
        var backlog = Backlog(limits: .init(pauseMessages: 4, pauseBytes: 1 << 20, closeBytes: 1 << 21))
        #expect(backlog.append(1, bytes: 10) == .none)
        #expect(backlog.append(2, bytes: 10) == .none)
        #expect(backlog.append(3, bytes: 10) == .none)
        #expect(backlog.append(4, bytes: 10) == .pause)
        #expect(backlog.isPaused)
        // Messages read in the same pass still queue, without asking to pause again.
        #expect(backlog.append(5, bytes: 10) == .none)
        #expect(backlog.next()! == (1, false))
        #expect(backlog.next()! == (2, false))
        #expect(backlog.next()! == (3, true))  // two left: half the bound
        #expect(!backlog.isPaused)
        #expect(backlog.next()! == (4, false))
        #expect(backlog.next()! == (5, false))
        #expect(backlog.next() == nil && backlog.bytes == 0)
    }

    @Test func pausesAtTheByteBound() {
        var backlog = Backlog(limits: .init(pauseMessages: 100, pauseBytes: 1000, closeBytes: 5000))
        #expect(backlog.append(1, bytes: 600) == .none)
        #expect(backlog.append(2, bytes: 600) == .pause)
        #expect(backlog.bytes == 1200)
        #expect(backlog.next()! == (1, false))  // 600 left: more than half
        #expect(backlog.next()! == (2, true))
    }

    @Test func overflowEmptiesTheBacklog() {
        var backlog = Backlog(limits: .init(pauseMessages: 2, pauseBytes: 100, closeBytes: 300))
        #expect(backlog.append(1, bytes: 100) == .pause)
        #expect(backlog.append(2, bytes: 150) == .none)
        #expect(backlog.append(3, bytes: 100) == .overflow)
        #expect(backlog.count == 0 && backlog.bytes == 0 && backlog.next() == nil)
    }

    @Test func longRunsKeepOrderAcrossCompaction() {
        var backlog = Backlog(limits: .init(pauseMessages: 1000, pauseBytes: 1 << 30, closeBytes: 1 << 30))
        var taken: [Int] = []
        for i in 0..<500 {
            _ = backlog.append(i, bytes: 1)
            if i % 3 == 0, let (element, _) = backlog.next() { taken.append(element) }
        }
        while let (element, _) = backlog.next() { taken.append(element) }
        #expect(taken == Array(0..<500))
    }
}
