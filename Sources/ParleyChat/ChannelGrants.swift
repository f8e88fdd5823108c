import ParleyChannels
import Synchronization

/// Which socket `POST /v1/channels/auth` signed which of Parley's own channels for, on behalf
/// of which user: the hub's subscription gate for those channels, and what a revocation reads
/// to find a user's sockets.
///
/// A channel signature never expires, so the signature alone cannot carry a revocation. The
/// gate therefore admits a socket to a guarded channel only while a confirmed grant for it
/// exists; ending a membership removes the user's grants, so a signature issued earlier and
/// used later is refused.
///
/// Authorising is begin → check membership → confirm. A revocation removes pending grants of
/// its user (or of every user, for a deleted room) too, so a check that read the membership
/// just before it was removed cannot confirm afterwards: the caller checks again.
final class ChannelGrants: SubscriptionGate {
    /// A pending grant, handed back to `confirm` or `abandon`.
    struct Ticket: Sendable, Hashable {
        fileprivate var socket: SocketKey
        fileprivate var channel: String
        fileprivate var user: String
        fileprivate var number: UInt64
    }

    fileprivate struct SocketKey: Hashable {
        var app: String
        var socket: String
    }

    private struct UserKey: Hashable {
        var app: String
        var user: String
    }

    private struct Entry {
        /// The room whose membership the grant depends on (nil: unknown yet, or none).
        var room: String?
        var confirmed: Bool
        var number: UInt64
    }

    private struct State {
        /// socket → channel → user → grant.
        var sockets: [SocketKey: [String: [String: Entry]]] = [:]
        /// user → sockets holding one of their grants.
        var userSockets: [UserKey: Set<String>] = [:]
        var nextNumber: UInt64 = 0
    }

    /// The channel name prefixes the gate guards.
    let guardedPrefixes: [String]
    private let state = Mutex(State())
    private let socketIsOpen = Mutex<(@Sendable (_ app: String, _ socket: String) -> Bool)?>(nil)
    private let grantConfirmed = Mutex<(@Sendable (_ app: String, _ socket: String, _ channel: String) -> Void)?>(nil)
    /// Whether grants can come from other nodes: then a subscription without one waits a
    /// moment for it instead of being refused at once.
    private let remoteGrants = Mutex(false)

    /// Grants for channels starting with one of `guardedPrefixes`.
    init(guardedPrefixes: [String]) {
        self.guardedPrefixes = guardedPrefixes
    }

    /// Whether the gate guards `channel`.
    func guards(_ channel: String) -> Bool {
        guardedPrefixes.contains { channel.hasPrefix($0) }
    }

    /// Tells the grants how to find out whether a socket is connected, so grants for sockets
    /// that do not exist (and so would never be forgotten by `socketClosed`) are not kept.
    func setSocketCheck(_ check: @escaping @Sendable (_ app: String, _ socket: String) -> Bool) {
        socketIsOpen.withLock { $0 = check }
    }

    /// Tells the grants whom to tell of a grant confirmed for a connected socket (the hub, so a
    /// subscription it holds for it is admitted).
    func setConfirmationHandler(_ handler: @escaping @Sendable (_ app: String, _ socket: String, _ channel: String) -> Void) {
        grantConfirmed.withLock { $0 = handler }
    }

    /// From now on grants may arrive from other nodes (see `decision`).
    func acceptRemoteGrants() {
        remoteGrants.withLock { $0 = true }
    }

    /// Whether `socket` is connected to this node (unknown: assumed so).
    func isLocal(app: String, socket: String) -> Bool {
        socketIsOpen.withLock { $0 }?(app, socket) ?? true
    }

    // MARK: Authorising

    /// Records a pending grant of `channel` to `socket` for `user`.
    func begin(app: String, channel: String, socket: String, user: String) -> Ticket {
        state.withLock { state in
            state.nextNumber += 1
            let key = SocketKey(app: app, socket: socket)
            var entry = state.sockets[key]?[channel]?[user] ?? Entry(room: nil, confirmed: false, number: 0)
            entry.number = state.nextNumber
            state.sockets[key, default: [:]][channel, default: [:]][user] = entry
            state.userSockets[UserKey(app: app, user: user), default: []].insert(socket)
            return Ticket(socket: key, channel: channel, user: user, number: state.nextNumber)
        }
    }

    /// Confirms a pending grant that depends on membership of `room`; false when a revocation
    /// (or a newer attempt) took it meanwhile: check the membership again.
    func confirm(_ ticket: Ticket, room: String?) -> Bool {
        let confirmed = state.withLock { state in
            guard var entry = state.sockets[ticket.socket]?[ticket.channel]?[ticket.user], entry.number == ticket.number else {
                return false
            }
            entry.confirmed = true
            entry.room = room
            state.sockets[ticket.socket]?[ticket.channel]?[ticket.user] = entry
            return true
        }
        // Checked after recording: a socket that closed before now is forgotten here, one that
        // closes later is forgotten by `socketClosed`.
        guard confirmed else { return false }
        if let isOpen = socketIsOpen.withLock({ $0 }), !isOpen(ticket.socket.app, ticket.socket.socket) {
            socketClosed(app: ticket.socket.app, socketID: ticket.socket.socket)
        } else {
            grantConfirmed.withLock { $0 }?(ticket.socket.app, ticket.socket.socket, ticket.channel)
        }
        return true
    }

    /// Drops a pending grant whose check failed (a confirmed one stays until revoked).
    func abandon(_ ticket: Ticket) {
        state.withLock { state in
            guard let entry = state.sockets[ticket.socket]?[ticket.channel]?[ticket.user],
                entry.number == ticket.number, !entry.confirmed
            else { return }
            Self.remove(&state, socket: ticket.socket, channel: ticket.channel, user: ticket.user)
        }
    }

    // MARK: Revoking

    /// Removes the grants an ending covers — `user`'s in `room`, every grant of `room`
    /// (`user` nil), or all of `user`'s (`room` nil) — with every pending grant of the users
    /// concerned. Returns, per channel, the sockets left without a confirmed grant there.
    func revoke(app: String, room: String?, user: String?) -> [String: Set<String>] {
        state.withLock { state in
            let candidates: [SocketKey]
            if let user {
                candidates = (state.userSockets[UserKey(app: app, user: user)] ?? []).map { SocketKey(app: app, socket: $0) }
            } else {
                candidates = state.sockets.keys.filter { $0.app == app }
            }
            var lost: [String: Set<String>] = [:]
            for key in candidates {
                for (channel, grants) in state.sockets[key] ?? [:] {
                    let doomed = grants.filter { grantUser, entry in
                        (user == nil || grantUser == user) && (!entry.confirmed || room == nil || entry.room == room)
                    }
                    guard !doomed.isEmpty else { continue }
                    for grantUser in doomed.keys { Self.remove(&state, socket: key, channel: channel, user: grantUser) }
                    let lostConfirmed = doomed.values.contains { $0.confirmed }
                    let stillConfirmed = state.sockets[key]?[channel]?.values.contains { $0.confirmed } ?? false
                    if lostConfirmed, !stillConfirmed { lost[channel, default: []].insert(key.socket) }
                }
            }
            return lost
        }
    }

    private static func remove(_ state: inout State, socket: SocketKey, channel: String, user: String) {
        state.sockets[socket]?[channel]?[user] = nil
        if state.sockets[socket]?[channel]?.isEmpty ?? false { state.sockets[socket]?[channel] = nil }
        if state.sockets[socket]?.isEmpty ?? false { state.sockets[socket] = nil }
        let holdsAnother = state.sockets[socket]?.values.contains { $0[user] != nil } ?? false
        if !holdsAnother {
            let userKey = UserKey(app: socket.app, user: user)
            state.userSockets[userKey]?.remove(socket.socket)
            if state.userSockets[userKey]?.isEmpty ?? false { state.userSockets[userKey] = nil }
        }
    }

    // MARK: SubscriptionGate

    func refusal(app: String, socketID: String, channel: String) -> String? {
        guard guards(channel), !isGranted(app: app, socketID: socketID, channel: channel) else { return nil }
        return Self.notGranted(channel)
    }

    /// Admits a granted socket; without a grant, waits when a grant may still arrive from
    /// another node (one that answered `POST /v1/channels/auth` for a socket connected here).
    func decision(app: String, socketID: String, channel: String) -> SubscriptionGateDecision {
        guard guards(channel), !isGranted(app: app, socketID: socketID, channel: channel) else { return .admit }
        return remoteGrants.withLock { $0 } ? .wait(Self.notGranted(channel)) : .refuse(Self.notGranted(channel))
    }

    private func isGranted(app: String, socketID: String, channel: String) -> Bool {
        state.withLock { state in
            state.sockets[SocketKey(app: app, socket: socketID)]?[channel]?.values.contains { $0.confirmed } ?? false
        }
    }

    private static func notGranted(_ channel: String) -> String {
        "Access to \(channel) is not granted to this connection (authorise it with POST /v1/channels/auth as a member)"
    }

    func socketClosed(app: String, socketID: String) {
        state.withLock { state in
            let key = SocketKey(app: app, socket: socketID)
            guard let channels = state.sockets.removeValue(forKey: key) else { return }
            for user in Set(channels.values.flatMap(\.keys)) {
                let userKey = UserKey(app: app, user: user)
                state.userSockets[userKey]?.remove(socketID)
                if state.userSockets[userKey]?.isEmpty ?? false { state.userSockets[userKey] = nil }
            }
        }
    }

    /// How many sockets hold grants (for tests).
    var socketCount: Int { state.withLock { $0.sockets.count } }
}
