import ParleyWire

/// The Pusher protocol state of one client connection (spec sections 1–6), without I/O.
///
/// Inputs are received frames, clock ticks (monotonic milliseconds) and the hub's answers;
/// outputs are `PusherConnectionAction`s. The driver sends, closes and talks to the hub.
public struct PusherConnection: Sendable {
    /// Where a subscription stands.
    enum SubscriptionState: Equatable {
        case pending
        case subscribed
    }

    /// A channel this connection asked for or holds.
    struct Subscription: Equatable {
        var channel: PusherChannel
        var state: SubscriptionState
        var presenceUserID: String?
    }

    /// The app the connection belongs to.
    /// (A reload replaces it for this connection alone.)
    public internal(set) var app: AppConfig {
        get { sharedApp.value }
        set { sharedApp = SharedAppConfig(newValue) }
    }
    private var sharedApp: SharedAppConfig
    /// The connection's socket id.
    public let socketID: PusherSocketID
    /// Seconds of silence before the server pings.
    public let activityTimeout: Int
    /// Seconds to wait for the pong.
    public let pongTimeout: Int

    /// Whether the connection has been closed (by us or the transport).
    public private(set) var isClosed = false
    /// The user the connection signed in as.
    public internal(set) var user: PusherSignedInUser?

    var subscriptions: [String: Subscription] = [:]
    private var lastActivity: Int64
    private var pingSentAt: Int64?
    var rateWindowStart: Int64 = 0
    var rateWindowCount = 0
    var rateErrorSentInWindow = false

    /// Creates the state of a connection that has just been accepted at `now`.
    public init(app: AppConfig, socketID: PusherSocketID, activityTimeout: Int = 120, pongTimeout: Int = 30, now: Int64) {
        self.init(
            sharedApp: SharedAppConfig(app), socketID: socketID, activityTimeout: activityTimeout,
            pongTimeout: pongTimeout, now: now)
    }

    /// Creates the state of a connection accepted at `now`, sharing its app's configuration
    /// with the app's other connections.
    public init(
        sharedApp: SharedAppConfig, socketID: PusherSocketID, activityTimeout: Int = 120, pongTimeout: Int = 30,
        now: Int64
    ) {
        self.sharedApp = sharedApp
        self.socketID = socketID
        self.activityTimeout = activityTimeout
        self.pongTimeout = pongTimeout
        self.lastActivity = now
    }

    /// The frames sent to a client whose connection is refused before it starts
    /// (unknown key 4001, disabled app 4003, over quota 4004, bad protocol 4007/4008...).
    public static func refusal(_ code: PusherErrorCode, message: String) -> [PusherConnectionAction] {
        [.send(PusherFrame.error(code: code.rawValue, message: message)), .close(code: code.rawValue, reason: message)]
    }

    /// Whether the `protocol` query parameter is one Parley speaks (5, 6 or 7); nil when fine.
    public static func checkProtocol(_ value: String?) -> PusherErrorCode? {
        guard let value else { return .noProtocol }
        guard let version = Int(value), (5...7).contains(version) else { return .unsupportedProtocol }
        return nil
    }

    /// The first frame: `pusher:connection_established`.
    public func start() -> [PusherConnectionAction] {
        [.send(PusherFrame.connectionEstablished(socketID: socketID.rawValue, activityTimeout: activityTimeout))]
    }

    /// The channels the connection is subscribed to (or asked for).
    public var channelNames: [String] { Array(subscriptions.keys) }

    /// The time by which `tick` must next be called, in monotonic milliseconds.
    public var nextDeadline: Int64 {
        if let pingSentAt { return pingSentAt + Int64(pongTimeout) * 1000 }
        return lastActivity + Int64(activityTimeout) * 1000
    }

    // MARK: inbound frames

    /// Any proof of life from the client (including WebSocket control frames).
    public mutating func noteActivity(now: Int64) {
        lastActivity = now
        pingSentAt = nil
    }

    /// A binary frame: not part of the protocol; the connection is closed.
    public mutating func receiveBinary(now: Int64) -> [PusherConnectionAction] {
        guard !isClosed else { return [] }
        noteActivity(now: now)
        return fail(.generic, "Binary frames are not supported; send UTF-8 JSON text frames")
    }

    /// A text frame from the client.
    public mutating func receiveText(_ bytes: [UInt8], now: Int64) -> [PusherConnectionAction] {
        guard !isClosed else { return [] }
        noteActivity(now: now)
        let message: PusherMessage
        do {
            message = try PusherMessage.parse(bytes)
        } catch {
            return fail(.generic, "Invalid message: expected a JSON object with an \"event\" string (\(error))")
        }
        switch message.event {
        case "pusher:ping": return [.send(PusherFrame.pong())]
        case "pusher:pong": return []
        case "pusher:subscribe": return subscribe(message)
        case "pusher:unsubscribe": return unsubscribe(message)
        case "pusher:signin": return signIn(message)
        default:
            if message.event.hasPrefix("client-") { return clientEvent(message, now: now) }
            if message.event.hasPrefix("pusher:") || message.event.hasPrefix("pusher_internal:") { return [] }
            return [
                .send(PusherFrame.error(code: nil, message: "Unsupported event \(message.event); client events must start with client-"))
            ]
        }
    }

    /// The clock: pings after `activityTimeout` of silence, closes 4201 when the pong is late.
    public mutating func tick(now: Int64) -> [PusherConnectionAction] {
        guard !isClosed else { return [] }
        if let pingSentAt {
            guard now - pingSentAt >= Int64(pongTimeout) * 1000 else { return [] }
            return fail(.pongNotReceived, "Pong reply not received in time")
        }
        guard now - lastActivity >= Int64(activityTimeout) * 1000 else { return [] }
        pingSentAt = now
        return [.send(PusherFrame.ping())]
    }

    /// The transport closed: leave every channel and sign out.
    public mutating func transportClosed() -> [PusherConnectionAction] {
        var actions: [PusherConnectionAction] = []
        if !isClosed || !subscriptions.isEmpty || user != nil {
            actions = subscriptions.keys.sorted().map { .unsubscribe(channel: $0) }
            if let user { actions.append(.signOut(userID: user.userID)) }
        }
        subscriptions = [:]
        user = nil
        isClosed = true
        return actions
    }

    /// Closes from the server side with an error (terminate, over capacity, shutdown...).
    public mutating func close(_ code: PusherErrorCode, message: String) -> [PusherConnectionAction] {
        guard !isClosed else { return [] }
        return fail(code, message)
    }

    private mutating func fail(_ code: PusherErrorCode, _ message: String) -> [PusherConnectionAction] {
        var actions = Self.refusal(code, message: message)
        actions += transportClosed()
        return actions
    }
}
