/// Parley's answer to "may this user subscribe to this channel?".
public enum ChannelAuthorization: Sendable, Hashable {
    /// A chat channel the user may subscribe to.
    case allowed
    /// A channel the user may subscribe to while they are a member of the room (a room-owned
    /// document's channel): the grant ends with the membership or the room.
    case allowedWhileMember(room: String)
    /// A chat channel the user may not subscribe to, with the reason.
    case denied(ChatError)
    /// Not one of the chat service's channels: the caller decides by its own rules.
    case notChatChannel
}
