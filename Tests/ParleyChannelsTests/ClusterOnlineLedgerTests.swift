import Testing

@testable import ParleyChannels

/// Users' signed-in connections across nodes: online at the first connection anywhere,
/// offline at the last one, each transition once.
@Suite struct ClusterOnlineLedgerTests {
    @Test func onlyTheFirstAndLastConnectionAnywhereAreTransitions() {
        var ledger = ClusterOnlineLedger()
        let r1 = ledger.apply(node: "a", app: "1", user: "u", online: true)
        #expect(r1 == .init(app: "1", user: "u", online: true))
        let r2 = ledger.apply(node: "b", app: "1", user: "u", online: true)
        #expect(r2 == nil)
        let r3 = ledger.apply(node: "a", app: "1", user: "u", online: false)
        #expect(r3 == nil)
        #expect(ledger.isOnline(app: "1", user: "u"))
        let r4 = ledger.apply(node: "b", app: "1", user: "u", online: false)
        #expect(r4 == .init(app: "1", user: "u", online: false))
        #expect(!ledger.isOnline(app: "1", user: "u"))
    }

    @Test func replacingANodeReportsWhatChanged() {
        var ledger = ClusterOnlineLedger()
        _ = ledger.apply(node: "a", app: "1", user: "gone", online: true)
        _ = ledger.apply(node: "a", app: "1", user: "stays", online: true)
        let changes = ledger.replace(node: "a", with: [.init(app: "1", user: "stays"), .init(app: "1", user: "new")])
        #expect(changes == [.init(app: "1", user: "gone", online: false), .init(app: "1", user: "new", online: true)])
    }
}
