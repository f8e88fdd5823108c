import Testing
@testable import ParleyChannels

@Test func moduleLinks() {
    #expect(!ParleyChannelsInfo.name.isEmpty)
}
