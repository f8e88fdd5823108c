import Testing

@testable import ParleyServer

@Suite struct ReadinessStateTests {
    @Test func anOutageIsOneTransitionDownAndOneBack() {
        var state = ReadinessState()
        #expect(state.problem == nil)
        #expect(state.recordProbe(failure: nil, now: 1_000) == nil)
        #expect(state.recordProbe(failure: "connection refused", now: 2_000) == .storeWentDown(reason: "connection refused"))
        #expect(state.problem?.code == "store_unreachable")
        // Further failures while down say nothing new, but keep the latest reason.
        #expect(state.recordProbe(failure: "timed out", now: 3_000) == nil)
        #expect(state.problem?.message == "the database does not answer: timed out")
        #expect(state.recordProbe(failure: nil, now: 7_500) == .storeRecovered(downMilliseconds: 5_500))
        #expect(state.problem == nil)
        #expect(state.recordProbe(failure: nil, now: 8_000) == nil)
    }

    @Test func drainingWinsAndStays() {
        var state = ReadinessState()
        _ = state.recordProbe(failure: "refused", now: 0)
        state.startDraining()
        #expect(state.problem?.code == "draining")
        _ = state.recordProbe(failure: nil, now: 10)
        #expect(state.problem?.code == "draining")
    }
}
