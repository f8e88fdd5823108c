import Testing
@testable import ParleyUI

@Test func moduleLinks() {
    #expect(!ParleyUIInfo.name.isEmpty)
}
