import ParleyWire

/// What one node's chat service tells the others' so their caches and sockets follow a
/// change made through it (the bus topic `chat`).
enum ChatClusterNotice: Sendable, Equatable {
    /// Some room's memberships may have changed: forget the cached member lists.
    case membershipsChanged
    /// Access ended: revoke this node's grants and subscriptions, tell its observers.
    case accessEnded(AccessEnding)
    /// A user was deleted: read their token cutoff again, forget their verified tokens.
    case userDeleted(app: String, user: String)
    /// The sender's bus was down from `since` (milliseconds since the epoch) until now: what it
    /// published meanwhile never reached the others, which catch up from the store.
    case busRejoined(since: Int64)
    /// Another node signed a guarded channel for a socket: the node holding the socket checks
    /// the membership and records the grant.
    case channelGranted(app: String, channel: String, socket: String, user: String)

    static let topic = "chat"

    /// The notice as JSON.
    var encoded: [UInt8] {
        let object: JSONObject
        switch self {
        case .membershipsChanged:
            object = ["kind": .string("memberships_changed")]
        case .accessEnded(let ending):
            object = [
                "kind": .string("access_ended"), "app": .string(ending.app), "room": ending.room.map(JSONValue.string) ?? .null,
                "user": ending.user.map(JSONValue.string) ?? .null, "reason": .string(ending.reason.rawValue)
            ]
        case .userDeleted(let app, let user):
            object = ["kind": .string("user_deleted"), "app": .string(app), "user": .string(user)]
        case .busRejoined(let since):
            object = ["kind": .string("bus_rejoined"), "since": .int64(since)]
        case .channelGranted(let app, let channel, let socket, let user):
            object = [
                "kind": .string("channel_granted"), "app": .string(app), "channel": .string(channel), "socket": .string(socket),
                "user": .string(user)
            ]
        }
        return JSONWriter.serialize(.object(object))
    }

    /// Decodes a notice; nil for anything else (a newer node's kind this one does not know).
    init?(decoding bytes: [UInt8]) {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue, let kind = object["kind"]?.stringValue else { return nil }
        switch kind {
        case "memberships_changed":
            self = .membershipsChanged
        case "access_ended":
            guard let app = object["app"]?.stringValue, let reason = object["reason"]?.stringValue.flatMap(AccessEnding.Reason.init) else {
                return nil
            }
            self = .accessEnded(
                AccessEnding(app: app, room: object["room"]?.stringValue, user: object["user"]?.stringValue, reason: reason))
        case "user_deleted":
            guard let app = object["app"]?.stringValue, let user = object["user"]?.stringValue else { return nil }
            self = .userDeleted(app: app, user: user)
        case "bus_rejoined":
            guard let since = object["since"]?.intValue else { return nil }
            self = .busRejoined(since: Int64(since))
        case "channel_granted":
            guard let app = object["app"]?.stringValue, let channel = object["channel"]?.stringValue,
                let socket = object["socket"]?.stringValue, let user = object["user"]?.stringValue
            else { return nil }
            self = .channelGranted(app: app, channel: channel, socket: socket, user: user)
        default:
            return nil
        }
    }
}
