import ParleyStore
import ParleyWire

/// Message search: `GET /v1/search` over the caller's rooms and `GET /v1/rooms/{id}/search`
/// within one room. A separate path rather than `messages?q=`, because a search page is ranked
/// and paged by cursor, unlike history's seq-ordered pages.
extension ChatService {
    /// The longest query accepted, in code points.
    static let maximumSearchQueryLength = 256
    /// How deep paging may go (offset of the first hit); deeper pages cost a ranking of every match.
    static let maximumSearchOffset = 1_000

    func searchAll(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        // Users search their own rooms; the app searches every room, or one user's with user_id.
        let user = context.caller.userID ?? call.request.queryValue("user_id")
        return try await search(call, context, user: user, room: nil)
    }

    func searchRoom(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let room = call.parameter("room_id")
        try await requireMember(context, room: room)
        return try await search(call, context, user: context.caller.userID, room: room)
    }

    private func search(_ call: ChatCall, _ context: ChatContext, user: String?, room: String?) async throws -> ChatResponse {
        let text = try call.searchQueryText()
        let limit = try call.limit(fallback: 20, maximum: configuration.limits.maxPage)
        let offset = try call.searchCursor()
        let search = MessageSearch(text: text, user: user, room: room, offset: offset, limit: limit + 1)
        var hits = try await storeCall(notFound: .roomNotFound) { try await store.searchMessages(app: context.appID, search) }
        // One extra hit tells whether another page follows.
        var next: String?
        if hits.count > limit {
            hits.removeLast()
            if offset + limit <= Self.maximumSearchOffset { next = String(offset + limit) }
        }
        return .json(SearchPage(hits: hits, nextCursor: next).json)
    }
}

extension ChatCall {
    /// `q`: required, 1…256 code points (as the document's `maxLength` counts). Text without a
    /// searchable word (spaces, punctuation) is well-formed: the store refuses it with 422.
    func searchQueryText() throws(ChatError) -> String {
        guard let text = request.queryValue("q"), !text.isEmpty else {
            throw ChatError(.invalidParameter, "q (the search text) is required")
        }
        guard text.unicodeScalars.count <= ChatService.maximumSearchQueryLength else {
            throw ChatError(.invalidParameter, "q must be at most \(ChatService.maximumSearchQueryLength) characters")
        }
        return text
    }

    /// `cursor`: a previous page's `next_cursor` (the number of hits before the page), else 0.
    func searchCursor() throws(ChatError) -> Int {
        guard let text = request.queryValue("cursor") else { return 0 }
        guard let offset = Int(text), (0...ChatService.maximumSearchOffset).contains(offset) else {
            throw ChatError(.invalidParameter, "cursor must be a next_cursor of an earlier page")
        }
        return offset
    }
}
