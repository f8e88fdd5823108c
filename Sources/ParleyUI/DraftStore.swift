/// Unsent composer text per room, shared by the conversation models of one app session.
public actor DraftStore {
    private var drafts: [String: String] = [:]

    /// Creates an empty store.
    public init() {}

    /// The draft of a room ("" when none).
    public func draft(for roomID: String) -> String { drafts[roomID] ?? "" }

    /// Replaces a room's draft; empty text removes it.
    public func setDraft(_ text: String, for roomID: String) {
        drafts[roomID] = text.isEmpty ? nil : text
    }
}
