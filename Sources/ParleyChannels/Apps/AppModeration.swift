import ParleyWire

/// An app's content rules (`apps[].moderation`): words its messages may not contain.
public struct AppModeration: Sendable, Equatable {
    /// What happens to a message that contains a blocked word.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// The send or edit is refused (`blocked_word`).
        case reject
        /// Each blocked word is replaced by as many `*` as it has characters.
        case mask
    }

    /// The blocked words, lowercased; matched as whole words, ignoring case.
    public var blockedWords: Set<String> = []
    /// Reject or mask.
    public var mode: Mode = .reject

    /// No blocked words.
    public init() {}

    /// Decodes `{"blocked_words": [...], "mode": "reject" | "mask"}`.
    public init(json: JSONValue, path: String) throws(ChannelsConfigError) {
        guard let object = json.objectValue else { throw ChannelsConfigError(path, "must be an object") }
        for key in object.keys where key != "blocked_words" && key != "mode" {
            throw ChannelsConfigError("\(path).\(key)", "is not a setting (blocked_words, mode)")
        }
        if let words = object["blocked_words"], words != .null {
            guard let list = words.arrayValue else { throw ChannelsConfigError("\(path).blocked_words", "must be an array of words") }
            for (i, word) in list.enumerated() {
                guard let text = word.stringValue, !text.isEmpty, !text.contains(where: \.isWhitespace) else {
                    throw ChannelsConfigError("\(path).blocked_words[\(i)]", "must be a non-empty word without spaces")
                }
                blockedWords.insert(text.lowercased())
            }
        }
        if let mode = object["mode"], mode != .null {
            guard let text = mode.stringValue, let parsed = Mode(rawValue: text) else {
                throw ChannelsConfigError("\(path).mode", "must be reject or mask")
            }
            self.mode = parsed
        }
    }
}
