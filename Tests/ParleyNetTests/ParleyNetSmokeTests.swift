import Testing
@testable import ParleyNet

@Test func moduleLinks() {
    #expect(!ParleyNetInfo.name.isEmpty)
}
