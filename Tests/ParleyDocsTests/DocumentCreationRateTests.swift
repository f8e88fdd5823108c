import ParleyChannels
import Testing

@testable import ParleyDocs

@Suite("Documents service: creation rate per user")
struct DocumentCreationRateTests {
    @Test func creatingDocumentsFasterThanTheRateIsRefused() async throws {
        try await withFixture { fixture in
            let clock = ManualClock()
            var configuration = DocumentsConfiguration()
            configuration.creationRate = RateLimit(perSecond: 0.5, burst: 2)
            let service = fixture.service(publisher: RecordingPublisher(), configuration: configuration, clock: clock.storeClock)
            _ = try await service.createDocument(name: "a", access: .room(fixture.roomID), by: "alice")
            _ = try await service.openOrCreateDocument(name: "b", room: fixture.roomID, by: "alice")
            await expectDocsError(.rateLimited) { try await service.openOrCreateDocument(name: "c", room: fixture.roomID, by: "alice") }
            // Opening an existing document costs nothing; another user has their own bucket.
            _ = try await service.openOrCreateDocument(name: "a", room: fixture.roomID, by: "alice")
            _ = try await service.createDocument(name: "c", access: .room(fixture.roomID), by: "bob")
            clock.advance(by: 2_000)
            _ = try await service.createDocument(name: "d", access: .room(fixture.roomID), by: "alice")
            #expect(
                YWebSocketSession.closeAction(for: DocumentsError(.rateLimited, "x"))
                    == .close(YWebSocketSession.rateLimitedCode, reason: "rate_limited"))
            #expect(YWebSocketSession.rateLimitedCode.rawValue == 4429)
        }
    }
}
