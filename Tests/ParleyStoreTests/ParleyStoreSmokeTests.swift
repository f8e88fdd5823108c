import Testing
@testable import ParleyStore

@Test func moduleLinks() {
    #expect(!ParleyStoreInfo.name.isEmpty)
}
