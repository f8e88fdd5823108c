import ParleyKit
import ParleyKitTesting
import Synchronization
import Testing

@testable import ParleyUI

/// The search screen's model: results with room, sender and the matched words marked, only
/// the user's rooms (or the one asked for), loading and failure states, the next page.
@Suite struct SearchModelTests {
    let clock = ManualClock(now: 1_700_000_000_000)
    let server: InMemoryChatServer
    let alice: ParleyClient
    let general: String
    let trips: String

    init() async throws {
        server = InMemoryChatServer(clock: clock)
        server.addUser("bob", name: "Bob")
        server.addUser("carol", name: "Carol")
        alice = try makeClient(server, "alice", clock: clock)
        general = try await alice.createRoom(name: "general", memberIDs: ["bob"]).id
        trips = try await alice.createRoom(name: "trips", memberIDs: ["carol"]).id
    }

    @Test func resultsShowRoomSenderAndTheMatchedWords() async throws {
        server.post("Lunch at noon? lunch!", as: "bob", in: general)
        clock.advance(by: .seconds(1))
        server.post("🎉 lunch in Lyon", as: "carol", in: trips)
        let secret = try await makeClient(server, "bob", clock: clock).createRoom(name: "secret", memberIDs: ["carol"]).id
        server.post("lunch without alice", as: "carol", in: secret)
        let model = SearchModel(client: alice)
        await model.search("lunch")
        let shown = await model.snapshot()
        #expect(shown.query == "lunch" && !shown.isLoading && shown.error == nil && !shown.hasMore)
        #expect(shown.results.map(\.roomTitle).sorted() == ["general", "trips"], "the room alice is not in stays out")
        let bobs = try #require(shown.results.first { $0.senderID == "bob" })
        #expect(bobs.senderName == "Bob" && bobs.text == "Lunch at noon? lunch!")
        #expect(bobs.matchedTexts == ["Lunch", "lunch"])
        #expect(
            bobs.segments == [.init("Lunch", isMatch: true), .init(" at noon? "), .init("lunch", isMatch: true), .init("!")])
        let carols = try #require(shown.results.first { $0.senderID == "carol" })
        #expect(carols.segments == [.init("🎉 "), .init("lunch", isMatch: true), .init(" in Lyon")], "past a two-unit emoji")
    }

    @Test func oneRoomOnlyAndFileNamesOnTheirOwnLine() async throws {
        server.post("lunch here", as: "bob", in: general)
        server.post("lunch there", as: "carol", in: trips)
        let model = SearchModel(client: alice, roomID: trips)
        await model.search("lunch")
        #expect(await model.snapshot().results.map(\.text) == ["lunch there"])
        #expect(await model.snapshot().roomID == trips)
    }

    @Test func loadMoreAppendsTheNextPageUntilThereIsNone() async throws {
        for number in 1...5 {
            server.post("standup \(number)", as: "bob", in: general)
            clock.advance(by: .seconds(1))
        }
        let model = SearchModel(client: alice, pageSize: 2)
        await model.search("standup")
        #expect(await model.snapshot().results.map(\.text) == ["standup 5", "standup 4"])
        #expect(await model.snapshot().hasMore)
        await model.loadMore()
        await model.loadMore()
        let all = await model.snapshot()
        #expect(all.results.map(\.text) == ["standup 5", "standup 4", "standup 3", "standup 2", "standup 1"])
        #expect(!all.hasMore)
        await model.loadMore()
        #expect(server.requestCount("GET /v1/search") == 3, "no request once there is no next page")
    }

    @Test func aRefusedQueryShowsTheErrorAndANewQueryReplacesTheResults() async throws {
        server.post("lunch at noon", as: "bob", in: general)
        let model = SearchModel(client: alice)
        var snapshots = model.snapshots().makeAsyncIterator()
        await model.search("lunch")
        let loading = await snapshots.next()
        #expect(loading?.isLoading == true && loading?.query == "lunch")
        #expect(await snapshots.next()?.results.count == 1)

        await model.search("a b c d e f g h i")
        let failed = await model.snapshot()
        #expect(failed.error?.contains("Cannot search") == true && failed.results.isEmpty && !failed.isLoading)

        await model.search("dinner")
        let none = await model.snapshot()
        #expect(none.error == nil && none.isEmpty)

        await model.search("   ")
        #expect(await model.snapshot() == SearchSnapshot(query: "", roomID: nil, results: [], isLoading: false, hasMore: false, error: nil))
    }

    @Test func anUnreachableServerIsAnError() async throws {
        let model = SearchModel(client: alice)
        server.setReachable(false)
        await model.search("lunch")
        let failed = await model.snapshot()
        #expect(failed.error?.hasPrefix("Search failed") == true && !failed.isLoading)
    }

    @Test func anAnswerToAReplacedQueryIsDropped() async throws {
        server.post("lunch at noon", as: "bob", in: general)
        server.post("dinner at eight", as: "bob", in: general)
        let gate = HeldSearches(server)
        let client = try ParleyClient(
            configuration: ParleyConfiguration(serverURL: "http://fake", appKey: server.appKey),
            tokenProvider: StaticTokenProvider(server.token(for: "alice")), http: gate, realtime: server, clock: clock)
        let model = SearchModel(client: client)
        let slow = Task { await model.search("lunch") }
        while !gate.isHolding { await Task.yield() }
        await model.search("dinner")
        gate.release()
        await slow.value
        let shown = await model.snapshot()
        #expect(shown.query == "dinner" && shown.results.map(\.text) == ["dinner at eight"], "the late lunch answer is not shown")
        #expect(!shown.isLoading)
    }
}

/// Passes requests to the server, but holds the first search for "lunch" until released.
final class HeldSearches: HTTPTransport {
    private let server: InMemoryChatServer
    private let held = Mutex<(holding: Bool, release: CheckedContinuation<Void, Never>?, released: Bool)>((false, nil, false))

    init(_ server: InMemoryChatServer) { self.server = server }

    var isHolding: Bool { held.withLock { $0.holding } }

    func release() {
        let waiter = held.withLock { state in
            state.released = true
            defer { state.release = nil }
            return state.release
        }
        waiter?.resume()
    }

    func send(_ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?) async throws(ParleyError) -> HTTPResponseMessage {
        if request.url.contains("/v1/search?q=lunch") {
            await withCheckedContinuation { continuation in
                let resumeNow = held.withLock { state in
                    state.holding = true
                    if state.released { return true }
                    state.release = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        return try await server.send(request, progress: progress)
    }
}
