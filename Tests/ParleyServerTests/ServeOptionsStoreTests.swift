import Testing

@testable import ParleyServer

@Suite struct ServeOptionsStoreTests {
    @Test func postgresWritersFromFlagOrEnvironment() throws {
        #expect(try ServeOptions.parse([]).postgresWriters == nil, "nil keeps the store's default")
        #expect(try ServeOptions.parse(["--pg-writers", "8"]).postgresWriters == 8)
        #expect(try ServeOptions.parse([], environment: ["PARLEY_PG_WRITERS": "2"]).postgresWriters == 2)
        #expect(try ServeOptions.parse(["--pg-writers=3"], environment: ["PARLEY_PG_WRITERS": "2"]).postgresWriters == 3)
    }

    @Test func postgresWritersOutOfRangeAreRefusedWithACode() {
        for bad in ["0", "65", "many", "-1"] {
            do {
                _ = try ServeOptions.parse(["--pg-writers", bad])
                Issue.record("--pg-writers \(bad) was accepted")
            } catch {
                #expect(error.code == "invalid_value")
            }
        }
    }
}
