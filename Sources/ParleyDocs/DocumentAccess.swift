/// Who may open and edit a document.
public enum DocumentAccess: Sendable, Hashable {
    /// The members of a chat room (the document is deleted with the room).
    case room(String)
    /// An explicit list of user ids (the creator is always on it).
    case users([String])
}
