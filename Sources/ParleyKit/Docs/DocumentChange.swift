/// A change of a document session's content: which root types changed, and whether this
/// client made it. Read the new content from the session.
public struct DocumentChange: Sendable, Hashable {
    /// The names of the root types (texts, maps, arrays) that changed.
    public var roots: Set<String>
    /// Whether the change is this client's own edit (false: it came from the server).
    public var isLocal: Bool
    /// The session's version after the change (see ``DocumentSnapshot/version``).
    public var version: Int

    /// Creates a change.
    public init(roots: Set<String>, isLocal: Bool, version: Int) {
        self.roots = roots
        self.isLocal = isLocal
        self.version = version
    }
}
