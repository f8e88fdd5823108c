import Testing

@testable import ParleyStore

@Suite("Conformance: chat hook outbox")
struct HookOutboxConformanceTests {
    private static func events(_ names: [String]) -> [HookOutboxEvent] {
        names.map { HookOutboxEvent(appID: "a", url: "http://127.0.0.1:9/hook", event: "{\"id\":\"\($0)\"}") }
    }

    @Test(arguments: TestEngine.available)
    func rowsAreClaimedOnceInOrderUntilDeliveredOrReleased(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.addHookEvents(Self.events(["e1", "e2", "e3"]), room: nil)
            try await store.addHookEvents(Self.events(["e4"]), room: "r1")
            #expect(try await store.pendingHookEventCount() == 4)

            let first = try await store.claimHookEvents(now: 1000, until: 5000, limit: 3)
            #expect(first.map(\.event) == ["{\"id\":\"e1\"}", "{\"id\":\"e2\"}", "{\"id\":\"e3\"}"])
            #expect(first.allSatisfy { $0.attempts == 0 && $0.firstAttemptAt == nil && $0.appID == "a" })
            // Claimed rows are nobody else's until the claim lapses.
            let second = try await store.claimHookEvents(now: 1000, until: 5000, limit: 10)
            #expect(second.map(\.event) == ["{\"id\":\"e4\"}"])
            #expect(try await store.claimHookEvents(now: 4999, until: 9000, limit: 10).isEmpty)

            // Delivered rows go; a failed one waits for its next attempt, with its count kept.
            try await store.removeHookEvents(ids: [first[0].id, first[1].id])
            try await store.retryHookEvents([HookEventRetry(id: first[2].id, attempts: 1, firstAttemptAt: 1000, nextAttemptAt: 8000)])
            #expect(try await store.pendingHookEventCount() == 2)
            // e4's claim lapsed at 5000 (its node stopped): due again; e3 is not due before 8000.
            let lapsed = try await store.claimHookEvents(now: 6000, until: 7000, limit: 10)
            #expect(lapsed.map(\.id) == [second[0].id])
            let retried = try await store.claimHookEvents(now: 8000, until: 9000, limit: 10)
            #expect(retried.map(\.id) == [first[2].id, second[0].id])
            #expect(retried.first?.attempts == 1 && retried.first?.firstAttemptAt == 1000)

            // At start, SQLite (one process per file) releases its earlier run's claims; on
            // PostgreSQL they may be another node's, so they only lapse.
            try await store.releaseStaleHookClaims()
            let afterRestart = try await store.claimHookEvents(now: 8500, until: 20_000, limit: 10)
            #expect(afterRestart.map(\.id) == (engine == .sqlite ? retried.map(\.id) : []))

            try await store.removeHookEvents(ids: retried.map(\.id))
            #expect(try await store.pendingHookEventCount() == 0)
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentClaimsNeverShareARow(_ engine: TestEngine) async throws {
        try await withStore(engine, writers: 4) { store in
            try await store.addHookEvents(Self.events((1...200).map { "e\($0)" }), room: nil)
            let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<4 { group.addTask { try await store.claimHookEvents(now: 10, until: 60_000, limit: 30).map(\.id) } }
                var all: [[Int64]] = []
                for try await ids in group { all.append(ids) }
                return all
            }
            let ids = claims.flatMap { $0 }
            #expect(ids.count == 120)
            #expect(Set(ids).count == ids.count)
        }
    }
}
