/// One part of a message.
public enum MessagePart: Sendable, Hashable {
    /// Plain text (at most `StoreLimits.textCharacters` characters).
    case text(String)
    /// A reference to an attachment uploaded to the same room, by attachment id.
    case attachment(String)
    /// A link.
    case url(String)
}
