import ParleyKit
import ParleyWireCore

/// Message search in the in-memory server (`GET /v1/search`, docs/openapi.json) with simple
/// word rules: a word is a run of letters and digits, compared lowercased; every query word
/// must match a word of a text part or file name, the last one as a prefix when it has three
/// or more characters and the query does not end in a space. Results rank by how many words
/// matched, then newest first; deleted messages, blocked users' messages and rooms the
/// caller is not in are left out, as on the real server.
extension InMemoryChatServer {
    static func search(_ state: State, _ me: String, _ query: [String: String]) throws -> Reply {
        let text = query["q"] ?? ""
        let words = Self.searchWords(text).map(\.word)
        guard !words.isEmpty, words.count <= 8, text.count <= 256 else { throw Failure(status: 400, code: "invalid_parameter") }
        let limit = Int(query["limit"] ?? "20") ?? -1
        let offset = Int(query["offset"] ?? "0") ?? -1
        guard (1...50).contains(limit), (0...200).contains(offset) else { throw Failure(status: 400, code: "invalid_parameter") }
        let rooms: [RoomRecord]
        if let roomID = query["room"] {
            rooms = [try member(state, roomID, me)]
        } else {
            rooms = state.rooms.values.filter { $0.members[me] != nil }
        }
        let prefix = words.last!.count >= 3 && !(text.last?.isWhitespace ?? true)
        let blocked = state.blocks[me] ?? []
        var found: [SearchResult] = []
        for record in rooms {
            for message in record.messages where !message.isDeleted && !blocked.contains(message.senderID) {
                if let result = Self.match(message, words, lastIsPrefix: prefix) { found.append(result) }
            }
        }
        found.sort { ($0.score, $0.message.createdAt, $0.message.id) > ($1.score, $1.message.createdAt, $1.message.id) }
        let page = Array(found.dropFirst(offset).prefix(limit))
        let next = offset + page.count < found.count ? offset + page.count : nil
        return (200, SearchResultPage(results: page, nextOffset: next).json, [])
    }

    /// The message as a result when every word matches one of its words.
    private static func match(_ message: ChatMessage, _ words: [String], lastIsPrefix: Bool) -> SearchResult? {
        var highlights: [SearchHighlight] = []
        var matched = Set<Int>()
        for (index, part) in message.parts.enumerated() {
            guard let text = SearchHighlight.searchableText(of: part) else { continue }
            for token in searchWords(text) {
                for (position, word) in words.enumerated() {
                    let isLast = position == words.count - 1
                    guard token.word == word || (isLast && lastIsPrefix && token.word.hasPrefix(word)) else { continue }
                    matched.insert(position)
                    highlights.append(SearchHighlight(part: index, start: token.range.lowerBound, end: token.range.upperBound))
                    break
                }
            }
        }
        guard matched.count == words.count else { return nil }
        return SearchResult(message: message, score: Double(highlights.count), highlights: highlights)
    }

    /// The lowercased words of `text` with their UTF-16 ranges.
    static func searchWords(_ text: String) -> [(word: String, range: Range<Int>)] {
        var words: [(word: String, range: Range<Int>)] = []
        var current = ""
        var start = 0
        var offset = 0
        for character in text {
            let width = character.utf16.count
            if character.isLetter || character.isNumber {
                if current.isEmpty { start = offset }
                current += character.lowercased()
            } else if !current.isEmpty {
                words.append((current, start..<offset))
                current = ""
            }
            offset += width
        }
        if !current.isEmpty { words.append((current, start..<offset)) }
        return words
    }
}
