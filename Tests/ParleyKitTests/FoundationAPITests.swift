import Foundation
import Testing

@testable import ParleyKit

/// Issue 18: Foundation-shaped API beside the wire values: Date, URL, Data, and UTF-16
/// (NSRange) offsets for document edits.
@Suite(.timeLimit(.minutes(2)))
struct FoundationAPITests {
    @Test func timestampsReadAsDates() {
        let message = ChatMessage(
            id: 1, roomID: "r", seq: 1, senderID: "a", parts: [.text("x")], createdAt: 1_700_000_000_123,
            editedAt: 1_700_000_001_000)
        #expect(message.createdDate == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(message.createdDate.parleyMilliseconds == 1_700_000_000_123)
        #expect(message.editedDate?.parleyMilliseconds == 1_700_000_001_000 && message.deletedDate == nil)
    }

    @Test func urlsGoInAndComeOut() throws {
        let configuration = ParleyConfiguration(
            server: try #require(URL(string: "https://chat.example.com/")), appKey: "k",
            store: URL(fileURLWithPath: "/tmp/parley.sqlite"))
        #expect(configuration.serverURL == "https://chat.example.com")
        #expect(configuration.server == URL(string: "https://chat.example.com"))
        #expect(configuration.storePath == "/tmp/parley.sqlite")
        #expect(configuration.resolvedRealtimeURL.hasPrefix("wss://chat.example.com/app/k?"))
    }

    @Test func utf16OffsetsMapToScalarsAndRefuseHalfAPair() throws {
        let text = "👍🏽 hello e\u{301}"  // 👍🏽 is 2 scalars and 4 UTF-16 units; é here is 2 of each
        #expect(text.unicodeScalars.count == 11 && text.utf16.count == 13)
        #expect(try UTF16Offsets.scalarOffset(ofUTF16: 4, in: text) == 2)
        #expect(try UTF16Offsets.scalarOffset(ofUTF16: 13, in: text) == 11)
        #expect(UTF16Offsets.utf16Offset(ofScalar: 3, in: text) == 5)
        #expect(throws: ParleyError.self) { try UTF16Offsets.scalarOffset(ofUTF16: 1, in: text) }
        #expect(throws: ParleyError.self) { try UTF16Offsets.scalarOffset(ofUTF16: 14, in: text) }
    }

    /// Edits given as NSRanges (what a UITextView reports) make the text NSString would make,
    /// and a second replica converges to it through the server.
    @Test func nsRangeEditsConvergeThroughTheServer() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "utf16", memberIDs: [try await bob.userID()])
        let a = try await alice.openDocument(room: room.id, name: "notes")
        let b = try await bob.openDocument(room: room.id, name: "notes")
        try await a.waitUntilSynced()
        try await b.waitUntilSynced()

        var expected = "👍🏽 hello e\u{301}"
        try await a.insert(expected, atUTF16: 0)
        let edits: [(NSRange, String)] = [
            (NSRange(location: 5, length: 5), "wörld"), (NSRange(location: 0, length: 4), "🇫🇷"),
            (NSRange(location: 11, length: 0), "\u{301}!"), (NSRange(location: 4, length: 0), " 🧑🏽‍💻")
        ]
        for (range, replacement) in edits {
            expected = (expected as NSString).replacingCharacters(in: range, with: replacement)
            try await a.replace(utf16Range: range.location..<(range.location + range.length), with: replacement)
        }
        let final = expected
        #expect(await a.snapshot.text == final)
        let onBob = await waitFor(b) { $0.text == final }
        #expect(onBob?.utf16Count == (final as NSString).length)
        await #expect(throws: ParleyError.self) { try await a.insert("x", atUTF16: 1) }
        await a.close()
        await b.close()
        await alice.close()
        await bob.close()
        await server.stop()
    }
}
