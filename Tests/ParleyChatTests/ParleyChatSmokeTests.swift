import Testing
@testable import ParleyChat

@Test func moduleLinks() {
    #expect(!ParleyChatInfo.name.isEmpty)
}
