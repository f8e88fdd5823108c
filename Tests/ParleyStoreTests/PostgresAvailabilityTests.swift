import Testing

@testable import ParleyStore

/// Says loudly, in the test report, whether the PostgreSQL half of the suite ran.
@Suite("PostgreSQL test instance")
struct PostgresAvailabilityTests {
    @Test(
        "PostgreSQL conformance suite is enabled",
        .enabled(
            if: TestEngine.postgresURL != nil || TestEngine.mustRunEverything,
            "PARLEY_TEST_POSTGRES_URL is not set: the PostgreSQL half of the conformance suite did NOT run (export PARLEY_TEST_POSTGRES_URL=$(scripts/postgres-test-instance.sh start))"
        ))
    func instanceAnswersWithDurableSettings() async throws {
        let url = try #require(
            TestEngine.postgresURL,
            "PARLEY_TEST_POSTGRES_URL is not set in a run that must run every test (PARLEY_TEST_NO_SKIPS=1): the PostgreSQL half of the conformance suite did not run"
        )
        let connection = try PostgresConnection(url: url)
        var setting = ""
        try connection.query("SHOW synchronous_commit", []) { setting = $0.text(0) }
        #expect(setting == "on")
        var fsync = ""
        try connection.query("SHOW fsync", []) { fsync = $0.text(0) }
        #expect(fsync == "on")
    }
}
