import ParleyWire

/// The Pusher Channels–compatible hub, socket protocol and HTTP API.
public enum ParleyChannelsInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyChannels"
}
