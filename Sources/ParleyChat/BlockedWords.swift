import ParleyChannels
import ParleyStore

/// The app's blocked-word rule applied to a message's text parts: whole words (runs of
/// letters, digits and marks) compared ignoring case.
enum BlockedWords {
    /// `parts` unchanged, masked, or `blocked_word` as `rules` say.
    static func apply(_ parts: [MessagePart], rules: AppModeration) throws(ChatError) -> [MessagePart] {
        guard !rules.blockedWords.isEmpty else { return parts }
        var result: [MessagePart] = []
        result.reserveCapacity(parts.count)
        for part in parts {
            guard case .text(let text) = part else {
                result.append(part)
                continue
            }
            let ranges = matches(in: text, words: rules.blockedWords)
            guard !ranges.isEmpty else {
                result.append(part)
                continue
            }
            if rules.mode == .reject {
                throw ChatError(.blockedWord, "the message contains a word this app does not allow: \(text[ranges[0]])")
            }
            result.append(.text(masked(text, ranges)))
        }
        return result
    }

    /// The ranges of the blocked words of `text`, in order.
    static func matches(in text: String, words: Set<String>) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start: String.Index?
        var index = text.startIndex
        while index <= text.endIndex {
            let isWordCharacter = index < text.endIndex && isWordCharacter(text[index])
            if isWordCharacter {
                if start == nil { start = index }
            } else if let wordStart = start {
                if words.contains(text[wordStart..<index].lowercased()) { ranges.append(wordStart..<index) }
                start = nil
            }
            guard index < text.endIndex else { break }
            index = text.index(after: index)
        }
        return ranges
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "'"
    }

    private static func masked(_ text: String, _ ranges: [Range<String.Index>]) -> String {
        var output = ""
        var cursor = text.startIndex
        for range in ranges {
            output += text[cursor..<range.lowerBound]
            output += String(repeating: "*", count: text[range].count)
            cursor = range.upperBound
        }
        output += text[cursor...]
        return output
    }
}
