import Foundation
import ParleyChannels
import ParleyStore
import Testing

@testable import ParleyServer

/// `--redis`, `PARLEY_REDIS`, the config's `"redis"`/`"redis_env"`, `--node-id`, and the
/// refusal of a bus with the embedded SQLite store.
@Suite struct ClusterOptionsTests {
    let postgres = StoreLocation.postgres(url: "postgres://parley@db/parley")

    @Test func flagsAndVariables() throws {
        let none = try ServeOptions.parse([])
        #expect(none.cluster.redis == nil && none.cluster.nodeID == nil)
        let env = try ServeOptions.parse([], environment: ["PARLEY_REDIS": "redis://cache:6379/2", "PARLEY_NODE_ID": "n1"])
        #expect(env.cluster.redisURL?.database == 2 && env.cluster.nodeID == "n1")
        let flag = try ServeOptions.parse(
            ["--redis", "redis://:pw@other/0", "--node-id=n2"], environment: ["PARLEY_REDIS": "redis://cache"])
        #expect(flag.cluster.redisURL?.host == "other" && flag.cluster.redisURL?.password == "pw" && flag.cluster.nodeID == "n2")
        #expect(none.cluster.resolvedNodeID(port: 6001).hasSuffix(":6001"))
    }

    @Test func badValuesAreRefusedWithACode() {
        for arguments in [["--redis", "http://cache"], ["--redis", "rediss://cache"], ["--node-id", "two words"], ["--node-id", ""]] {
            do {
                _ = try ServeOptions.parse(arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(error.code == "invalid_value")
            }
        }
    }

    @Test func theConfigFileGivesTheBusWhenNoFlagDoes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cluster-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"apps":[],"redis_env":"BUS_URL"}"#.write(to: file, atomically: true, encoding: .utf8)
        var options = try ServeOptions.parse(["--config", file.path])
        let fromEnv = try ParleyServerMain.resolveCluster(
            options, location: postgres, environment: { $0 == "BUS_URL" ? "redis://bus:6380" : nil }
        ).get()
        #expect(fromEnv.cluster.redisURL?.port == 6380)
        let unset = ParleyServerMain.resolveCluster(options, location: postgres, environment: { _ in nil })
        #expect(throws: ServerStartError.self) { try unset.get() }
        try #"{"apps":[],"redis":"redis://file:6379"}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(try ParleyServerMain.resolveCluster(options, location: postgres).get().cluster.redisURL?.host == "file")
        options.cluster.redis = "redis://flag:6379"
        #expect(try ParleyServerMain.resolveCluster(options, location: postgres).get().cluster.redisURL?.host == "flag")
    }

    @Test func aBusWithTheEmbeddedSQLiteStoreIsRefused() throws {
        let options = try ServeOptions.parse(["--redis", "redis://cache:6379"])
        do {
            _ = try ParleyServerMain.resolveCluster(options, location: .sqlite(path: "/tmp/x.sqlite")).get()
            Issue.record("accepted")
        } catch {
            #expect(error.code == "redis_needs_postgres")
            #expect(error.message.contains("SQLite"))
        }
        #expect(
            try ParleyServerMain.resolveCluster(try ServeOptions.parse([]), location: .sqlite(path: "/tmp/x.sqlite")).get().cluster.redis
                == nil)
    }

    @Test func healthSaysTheNodeAndTheBus() {
        #expect(ParleyServer.healthBody(cluster: nil) == #"{"status":"ok"}"#)
    }
}
