import ParleyKit

/// What the shared-document editor shows: the text, the live character count, the caret,
/// the other editors' cursors and the connection.
public struct DocumentEditorSnapshot: Sendable, Equatable {
    /// Another user's cursor.
    public struct Cursor: Sendable, Equatable {
        /// Who.
        public var name: String
        /// Where their caret is (a scalar position), if they have one.
        public var position: Int?

        /// Creates a cursor.
        public init(name: String, position: Int?) {
            self.name = name
            self.position = position
        }
    }

    /// The document's name.
    public var name: String
    /// The text.
    public var text: String
    /// The number of characters (Unicode scalars), as the counter shows it.
    public var characterCount: Int
    /// This user's caret, a scalar position.
    public var caret: Int
    /// The other users present, by name.
    public var others: [Cursor]
    /// The connection.
    public var connection: DocumentSessionState

    /// Creates a snapshot.
    public init(
        name: String, text: String = "", characterCount: Int = 0, caret: Int = 0, others: [Cursor] = [],
        connection: DocumentSessionState = .idle
    ) {
        self.name = name
        self.text = text
        self.characterCount = characterCount
        self.caret = caret
        self.others = others
        self.connection = connection
    }

    /// The editor's view of a session snapshot: without a caret of its own, the user's caret
    /// is at the end.
    public init(name: String, session snapshot: DocumentSnapshot) {
        self.name = name
        text = snapshot.text
        characterCount = snapshot.count
        caret = min(snapshot.selection?.head ?? snapshot.count, snapshot.count)
        others = snapshot.peers.map {
            Cursor(
                name: $0.presence.name.isEmpty ? "someone" : $0.presence.name,
                position: $0.presence.selection.map { min($0.head, snapshot.count) })
        }
        connection = snapshot.state
    }

    /// "1 character", "42 characters".
    public var counterText: String { characterCount == 1 ? "1 character" : "\(characterCount) characters" }

    /// The connection in a word or two.
    public var connectionText: String {
        switch connection {
        case .idle, .connecting: "◌ connecting"
        case .syncing: "◌ syncing"
        case .synced: "● synced"
        case .reconnecting: "◌ offline — edits kept"
        case .closed(let reason): "✗ closed: \(reason)"
        }
    }

    /// Who else is editing, for a status line: "bob, carol editing" or nil.
    public var othersText: String? {
        guard !others.isEmpty else { return nil }
        return others.map(\.name).joined(separator: ", ") + " editing"
    }
}
