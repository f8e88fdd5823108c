import ParleyStore
import ParleyWire

/// Message search: `GET /v1/search` over the caller's rooms (or `room=` one of them), and
/// `GET /v1/rooms/{room_id}/search` or `GET /v1/rooms/{room_id}/messages?q=` over one room.
///
/// The store decides what may be found (the caller's rooms at the time of the search, no
/// deleted messages, nothing from users the caller blocks); this side checks the query and
/// marks where each hit shows the query's words.
extension ChatService {
    /// The longest `q`, in Unicode scalars (what JSON Schema's `maxLength` counts).
    static let maxSearchQueryLength = 256
    /// The most words in `q`: every one must match, so more only narrows to nothing slower.
    static let maxSearchWords = 8
    /// The shortest last word matched as a prefix: shorter ones would match a good part of the index.
    static let minSearchPrefixLength = 3
    /// The largest search page, and the one given without `limit`.
    static let maxSearchPage = 50, defaultSearchPage = 20

    func searchMessages(_ call: ChatCall) async throws -> ChatResponse {
        let room = call.request.queryValue("room")
        if room?.isEmpty == true { throw ChatError(.invalidParameter, "room must name a room") }
        return try await search(call, room: room)
    }

    func searchRoom(_ call: ChatCall) async throws -> ChatResponse {
        try await search(call, room: call.parameter("room_id"))
    }

    private func search(_ call: ChatCall, room: String?) async throws -> ChatResponse {
        let context = try call.requireContext()
        // A search is what one user may read: the app's own calls have no "my rooms".
        let user = try context.requireUser()
        let request = call.request
        let query = try Self.searchQuery(
            q: request.queryValue("q"), limit: request.queryValue("limit"), offset: request.queryValue("offset"), room: room)
        let store = try searchStore()
        var page = try await storeCall(notFound: .roomNotFound) {
            try await store.searchMessages(app: context.appID, user: user, query)
        }
        let shown = try await withoutBlockedReactions(context, page.hits.map(\.message))
        for index in page.hits.indices { page.hits[index].message = shown[index] }
        return .json(Self.searchJSON(page, query))
    }

    /// The store query for the request's `q`, `limit` and `offset`, or `invalid_parameter`.
    static func searchQuery(q: String?, limit: String?, offset: String?, room: String?) throws(ChatError) -> MessageSearchQuery {
        guard let q else { throw ChatError(.invalidParameter, "q is required: the words to search for") }
        guard q.unicodeScalars.count <= maxSearchQueryLength else {
            throw ChatError(.invalidParameter, "q has at most \(maxSearchQueryLength) characters")
        }
        guard q.contains(where: { !$0.isWhitespace }) else { throw ChatError(.invalidParameter, "q is empty") }
        let words = SearchTokenizer.words(in: q)
        guard let last = words.last else {
            throw ChatError(.invalidParameter, "q has no words to search for (letters, digits, ideographs or emoji)")
        }
        guard words.count <= maxSearchWords else { throw ChatError(.invalidParameter, "q has at most \(maxSearchWords) words") }
        // A query that does not end in a space is still being typed: its last word may be cut short.
        let prefix = last.count >= minSearchPrefixLength && q.last?.isWhitespace == false
        return MessageSearchQuery(
            words: words, lastWordIsPrefix: prefix, room: room,
            limit: try integer("limit", limit, or: defaultSearchPage, in: 1...maxSearchPage),
            offset: try integer("offset", offset, or: 0, in: 0...MessageSearchQuery.candidateLimit))
    }

    /// `text` as an integer in `range`, `fallback` when absent, else `invalid_parameter`.
    private static func integer(_ name: String, _ text: String?, or fallback: Int, in range: ClosedRange<Int>) throws(ChatError) -> Int {
        guard let text else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw ChatError(.invalidParameter, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The answer: each hit's message as history shows it, its score and its highlights.
    static func searchJSON(_ page: MessageSearchPage, _ query: MessageSearchQuery) -> JSONValue {
        let results = page.hits.map { hit -> JSONValue in
            .object([
                "message": hit.message.json, "score": scoreJSON(hit.score),
                "highlights": .array(SearchHighlight.all(in: hit.message, for: query).map(\.json))
            ])
        }
        return .object(["results": .array(results), "next_offset": .optional(page.nextOffset)])
    }

    /// A score as a JSON number (JSON has no NaN or infinity; no engine gives them, but 0 keeps the answer valid).
    private static func scoreJSON(_ score: Double) -> JSONValue {
        .number(score.isFinite ? String(score) : "0")
    }

    private func searchStore() throws(ChatError) -> any SearchStore {
        guard let store = store as? any SearchStore else { throw ChatError(.unavailable, "this store keeps no search index") }
        return store
    }
}
