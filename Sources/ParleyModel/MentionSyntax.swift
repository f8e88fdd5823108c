/// How `@user` mentions are written in message text.
///
/// A mention is `@` followed by a user id: the longest run of user-id characters
/// (`A-Z a-z 0-9 _ - = @ , . ;`) after the `@`, less any trailing `.`, `,` or `;` (sentence
/// punctuation). The `@` must start the text or follow a character that is not a user-id
/// character, so an address such as `bob@example.com` mentions nobody. The server resolves the
/// candidates against the room's members when the message is sent; ids that are not members
/// are left as plain text.
public enum MentionSyntax {
    /// At most this many distinct candidates are taken from one message.
    public static let maximumCandidates = 20

    /// One mention in a text: the user id and where the `@…` stands.
    public struct Match: Sendable, Hashable {
        /// The mentioned user id (without the `@`).
        public var userID: String
        /// The range of `@userID` in the text.
        public var range: Range<String.Index>
    }

    /// Every `@id` in `text`, in order (repeats included).
    public static func matches(in text: String) -> [Match] {
        var found: [Match] = []
        var index = text.startIndex
        var previousIsIDCharacter = false
        while index < text.endIndex {
            let character = text[index]
            guard character == "@", !previousIsIDCharacter else {
                previousIsIDCharacter = isIDCharacter(character)
                index = text.index(after: index)
                continue
            }
            let start = text.index(after: index)
            var end = start
            while end < text.endIndex, isIDCharacter(text[end]) { end = text.index(after: end) }
            var idEnd = end
            while idEnd > start, let last = text[..<idEnd].last, last == "." || last == "," || last == ";" {
                idEnd = text.index(before: idEnd)
            }
            if idEnd > start { found.append(Match(userID: String(text[start..<idEnd]), range: index..<idEnd)) }
            previousIsIDCharacter = end > start
            index = end > start ? end : start
        }
        return found
    }

    /// The distinct user ids mentioned in `texts`, in order of first appearance, at most
    /// ``maximumCandidates``.
    public static func candidates(in texts: [String]) -> [String] {
        var ids: [String] = []
        // A byte scan: most messages mention nobody, and a Character walk costs far more.
        for text in texts where hasAtSign(text) {
            for match in matches(in: text) where !ids.contains(match.userID) {
                ids.append(match.userID)
                if ids.count == maximumCandidates { return ids }
            }
        }
        return ids
    }

    /// Whether `text` holds an `@`: a loop over its UTF-8 buffer where that is contiguous (native
    /// strings, all of a message's), a fraction of the generic `utf8.contains` walk per byte.
    private static func hasAtSign(_ text: String) -> Bool {
        let at = UInt8(ascii: "@")
        return text.utf8.withContiguousStorageIfAvailable { $0.contains(at) } ?? text.utf8.contains(at)
    }

    /// Whether `character` may appear in a user id.
    public static func isIDCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        switch ascii {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return "_-=@,.;".utf8.contains(ascii)
        }
    }
}
