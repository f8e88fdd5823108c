/// What erasing a user does to what they wrote.
public enum ErasureMode: String, Sendable, Hashable, CaseIterable {
    /// Their messages become deleted tombstones (no parts, no reactions) and their uploads are removed.
    case delete
    /// Their messages and uploads stay, under the anonymous author ``UserErasure/anonymousAuthor``.
    case anonymise
}
