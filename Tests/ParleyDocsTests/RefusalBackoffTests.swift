import ParleyDocs
import Testing

@Suite("Refused messages: backoff")
struct RefusalBackoffTests {
    @Test func repeatsOfTheSameRefusedMessageWaitLongerAndLonger() {
        var backoff = RefusalBackoff(baseDelay: 1_000, maxDelay: 8_000, memory: 60_000)
        let bad: [UInt8] = [0, 2, 9, 1]
        let delays = (0..<6).map { step in backoff.record(sender: "alice", message: bad, now: Int64(step) * 100) }
        #expect(delays == [0, 1_000, 2_000, 4_000, 8_000, 8_000])
        // Another sender, or another message, starts over.
        #expect(backoff.record(sender: "bob", message: bad, now: 700) == 0)
        #expect(backoff.record(sender: "alice", message: [0, 2, 9, 2], now: 800) == 0)
        #expect(backoff.record(sender: "alice", message: [0, 2, 9, 2], now: 900) == 1_000)
        // After the memory runs out the message counts as new.
        #expect(backoff.record(sender: "alice", message: [0, 2, 9, 2], now: 900 + 60_001) == 0)
    }

    @Test func rememberedSendersAreBounded() {
        var backoff = RefusalBackoff(memory: 1_000_000, capacity: 100)
        for sender in 0..<1_000 {
            _ = backoff.record(sender: "s\(sender)", message: [1], now: Int64(sender))
        }
        #expect(backoff.count <= 100)
        // The newest are kept.
        #expect(backoff.record(sender: "s999", message: [1], now: 2_000) == 1_000)
    }
}
