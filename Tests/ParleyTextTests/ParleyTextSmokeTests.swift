import Testing
@testable import ParleyText

@Test func moduleLinks() {
    #expect(!ParleyTextInfo.name.isEmpty)
}
