import ParleyKit

/// The UI-free state of a shared text editor on one document: observe ``snapshots()``, call
/// the intents. Every keystroke is a live edit of the document session; the caret follows
/// the text as others type, and their cursors come from the session's awareness.
///
/// No networking of its own: it drives a ``DocumentSession``, so tests give it one over a
/// loopback server or a scripted transport.
public actor DocumentEditorModel {
    private let session: DocumentSession
    /// The document's name.
    public nonisolated let name: String
    private let hub: Broadcaster<DocumentEditorSnapshot>
    private var latest: DocumentEditorSnapshot
    private var task: Task<Void, Never>?

    /// Creates the model of an open session; call ``start()`` next.
    public init(session: DocumentSession, name: String) {
        self.session = session
        self.name = name
        latest = DocumentEditorSnapshot(name: name)
        hub = Broadcaster(replayLatest: true, initial: latest)
    }

    /// The snapshot now and after every change.
    public nonisolated func snapshots() -> AsyncStream<DocumentEditorSnapshot> { hub.stream() }

    /// The snapshot now.
    public var snapshot: DocumentEditorSnapshot { latest }

    /// Follows the session.
    public func start() async {
        guard task == nil else { return }
        let snapshots = session.snapshots()
        task = Task { for await next in snapshots { self.sessionChanged(next) } }
        sessionChanged(await session.snapshot)
    }

    private func sessionChanged(_ snapshot: DocumentSnapshot) {
        let next = DocumentEditorSnapshot(name: name, session: snapshot)
        guard next != latest else { return }
        latest = next
        hub.send(next)
    }

    /// Types text (a character, a pasted run, or "\n") at the caret.
    /// - Throws: ``ParleyError/Code/closed`` once the session has closed.
    public func type(_ text: String) async throws(ParleyError) {
        try await session.type(text)
    }

    /// Deletes the character before the caret.
    /// - Throws: ``ParleyError/Code/closed`` once the session has closed.
    public func backspace() async throws(ParleyError) {
        try await session.deleteAtCaret(forward: false)
    }

    /// Deletes the character after the caret.
    /// - Throws: ``ParleyError/Code/closed`` once the session has closed.
    public func deleteForward() async throws(ParleyError) {
        try await session.deleteAtCaret(forward: true)
    }

    /// Moves the caret.
    public func move(_ move: CaretMove) async {
        await session.moveSelection { text, selection in
            let count = text.unicodeScalars.count
            return .cursor(move.apply(to: selection?.head ?? count, in: text))
        }
    }

    /// Stops following and closes the session (the others see this user leave).
    public func close() async {
        task?.cancel()
        task = nil
        await session.close()
        hub.finish()
    }
}
