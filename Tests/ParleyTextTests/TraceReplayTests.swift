import Foundation
import Testing

@testable import ParleyText

@Suite struct TraceReplayTests {
    @Test(.enabled(if: TraceFixture.available("automerge-paper"), TraceFixture.absentMessage("automerge-paper")))
    func sequentialTraceGivesEndContent() throws {
        let trace = try TraceFixture.load("automerge-paper")
        let txns = try #require(trace["txns"] as? [[String: Any]])
        let end = try #require(trace["endContent"] as? String)
        #expect(txns.count == 259_778)
        var doc = TextDocument(clientID: 1)
        for txn in txns {
            for patch in TraceFixture.patches(txn) {
                try doc.splice(at: patch.position, deleting: patch.deleteCount, inserting: patch.text)
            }
        }
        #expect(doc.count == 104_852)
        #expect(doc.text == end)
        var loaded = TextDocument(clientID: 2)
        try loaded.applyUpdate(doc.encodeStateAsUpdate())
        #expect(loaded.text == end)
    }

    @Test(.enabled(if: TraceFixture.available("friendsforever"), TraceFixture.absentMessage("friendsforever")))
    func friendsforeverConvergesOnEveryReplica() throws {
        try replayConcurrent("friendsforever")
    }

    @Test(.enabled(if: TraceFixture.available("clownschool"), TraceFixture.absentMessage("clownschool")))
    func clownschoolConvergesOnEveryReplica() throws {
        try replayConcurrent("clownschool")
    }

    /// One replica per agent; before each transaction the agent's replica takes exactly the
    /// other agents' per-transaction updates its parents include (by version vector).
    private func replayConcurrent(_ name: String) throws {
        let trace = try TraceFixture.load(name)
        let txns = try #require(trace["txns"] as? [[String: Any]])
        let end = try #require(trace["endContent"] as? String)
        let agents = try #require((trace["numAgents"] as? NSNumber)?.intValue)
        var replicas = (0..<agents).map { TextDocument(clientID: UInt64($0 + 1)) }
        var applied = Array(repeating: Array(repeating: 0, count: agents), count: agents)
        var agentUpdates = Array(repeating: [[UInt8]](), count: agents)
        var versions: [[Int]] = []
        versions.reserveCapacity(txns.count)
        for txn in txns {
            let agent = try #require((txn["agent"] as? NSNumber)?.intValue)
            let parents = (txn["parents"] as? [NSNumber] ?? []).map(\.intValue)
            var version = Array(repeating: 0, count: agents)
            for parent in parents {
                for other in 0..<agents { version[other] = max(version[other], versions[parent][other]) }
            }
            for other in 0..<agents where other != agent {
                while applied[agent][other] < version[other] {
                    try replicas[agent].applyUpdate(agentUpdates[other][applied[agent][other]])
                    applied[agent][other] += 1
                }
            }
            #expect(applied[agent] == version, "replica \(agent) is not at its parents' version")
            #expect(!replicas[agent].hasPendingUpdates)
            for patch in TraceFixture.patches(txn) {
                try replicas[agent].splice(at: patch.position, deleting: patch.deleteCount, inserting: patch.text)
            }
            agentUpdates[agent].append(replicas[agent].takeLocalUpdate() ?? [0, 0])
            applied[agent][agent] += 1
            version[agent] = applied[agent][agent]
            versions.append(version)
        }
        for agent in 0..<agents {
            for other in 0..<agents where other != agent {
                for update in agentUpdates[other][applied[agent][other]...] {
                    try replicas[agent].applyUpdate(update)
                }
            }
            #expect(!replicas[agent].hasPendingUpdates)
            #expect(replicas[agent].text == end, "replica \(agent) differs from endContent")
        }
        // The merged document also survives a round trip through its encoding.
        var loaded = TextDocument(clientID: 99)
        try loaded.applyUpdate(replicas[0].encodeStateAsUpdate())
        #expect(loaded.text == end)
    }
}
