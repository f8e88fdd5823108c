/// What the client tracks per room: its realtime subscription and, while the app watches
/// it, the sequencer and event fan-out.
struct RoomChannelState {
    /// Subscribed on the current socket.
    var subscribed = false
    /// A subscribe request is on its way.
    var subscribing = false
    /// Ordering and de-duplication of new messages; nil while nobody watches.
    var sequencer: RoomSequencer?
    /// The app's streams of this room's events.
    var events: Broadcaster<RoomEvent>?
    /// A history gap-fill is running.
    var filling = false
    /// Another fill is wanted after the running one.
    var refill = false
    /// Others typing: user id → expiry (clock milliseconds).
    var typers: [String: Int64] = [:]
}
