import Testing
@testable import ParleyServer

@Test func moduleLinks() {
    #expect(!ParleyVersion.string.isEmpty)
}
