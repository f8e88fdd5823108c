import Testing
@testable import ParleyKit

@Test func moduleLinks() {
    #expect(!ParleyKitInfo.name.isEmpty)
}
