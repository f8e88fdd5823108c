import ParleyKitTesting
import ParleyWireCore
import Testing

@testable import ParleyKit

/// The search answer as the SDK reads it: the wire shape, highlights as UTF-16 offsets turned
/// into Swift ranges of the part's text, and the request the client sends.
@Suite struct SearchResultTests {
    static let answer = #"""
        {"results":[{"message":{"id":7,"room_id":"r","seq":3,"sender_id":"bob","parts":[
          {"type":"text","text":"🎉 Café party, café!"},
          {"type":"file","attachment_id":"a1","name":"café-menu.pdf","content_type":"application/pdf","size":10}],
          "created_at":1700000000000,"reactions":[]},
          "score":2.5,
          "highlights":[{"part":0,"start":3,"end":7},{"part":0,"start":15,"end":19},{"part":1,"start":0,"end":4}]}],
         "next_offset":20}
        """#

    @Test func theAnswerDecodesWithRangesInEachPartsText() throws {
        let page = try SearchResultPage(json: try JSONParser.parse(Array(Self.answer.utf8)))
        #expect(page.nextOffset == 20 && page.hasMore)
        let result = try #require(page.results.first)
        #expect(result.id == 7 && result.score == 2.5 && result.message.senderID == "bob")
        #expect(result.matchedTexts == ["Café", "café", "café"], "UTF-16 offsets past a two-unit emoji")
        let text = try #require(result.partText(0))
        #expect(result.ranges(inPart: 0).map { String(text[$0]) } == ["Café", "café"])
        #expect(result.partText(1) == "café-menu.pdf", "a file part's name is its searchable text")
        #expect(result.range(of: SearchHighlight(part: 0, start: 1, end: 4)) == nil, "inside the emoji's surrogate pair")
        #expect(result.range(of: SearchHighlight(part: 5, start: 0, end: 1)) == nil)
        #expect(try SearchResultPage(json: page.json) == page, "the API's form reads back")
    }

    @Test func aLastPageHasNoNextOffsetAndABadAnswerIsADecodingError() throws {
        let last = try SearchResultPage(json: try JSONParser.parse(Array(#"{"results":[],"next_offset":null}"#.utf8)))
        #expect(last.results.isEmpty && last.nextOffset == nil && !last.hasMore)
        #expect(throws: ParleyError.self) {
            try SearchResultPage(json: try JSONParser.parse(Array(#"{"results":[{"message":{},"score":1}]}"#.utf8)))
        }
    }

    @Test func theClientAsksForTheQueryRoomAndPage() async throws {
        let clock = ManualClock()
        let server = InMemoryChatServer(clock: clock)
        server.addUser("bob")
        let alice = try makeClient(server, "alice", clock: clock)
        let room = try await alice.createRoom(name: "general", memberIDs: ["bob"])
        server.post("lunch at noon?", as: "bob", in: room.id)
        server.post("Lunch was great", as: "bob", in: room.id)
        let page = try await alice.search("lunch", in: room.id, limit: 1)
        #expect(page.results.map(\.message.text) == ["Lunch was great"] && page.nextOffset == 1)
        let next = try await alice.search("lunch", in: room.id, limit: 1, offset: 1)
        #expect(next.results.map(\.message.text) == ["lunch at noon?"] && next.nextOffset == nil)
        await #expect(throws: ParleyError.self) { try await alice.search(" ") }
        #expect(server.requestCount("GET /v1/search") == 2, "a blank query is refused before any request")
    }
}
