import Testing
@testable import ParleyDocs

@Test func moduleLinks() {
    #expect(!ParleyDocsInfo.name.isEmpty)
}
