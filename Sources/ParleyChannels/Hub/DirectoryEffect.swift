/// Something a `ChannelDirectory` change requires beyond its own state.
public enum DirectoryEffect: Sendable, Equatable {
    /// Deliver a frame to every subscriber of a channel except one socket.
    case broadcast(app: String, channel: String, frame: [UInt8], excluding: String?)
    /// Deliver a frame to one connection.
    case send(app: String, socketID: String, frame: [UInt8])
    /// Queue a webhook event.
    case webhook(app: String, WebhookEvent)
}
