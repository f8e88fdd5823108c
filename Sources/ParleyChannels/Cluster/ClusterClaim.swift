/// A node's first subscription to a channel (or a presence member's first connection to it
/// on that node) arriving, or its last one leaving. The bus's store counts the nodes behind
/// each channel and member, and only a claim that made the first node arrive or the last one
/// leave is the cluster's change: its webhook (`channel_occupied`, `channel_vacated`,
/// `member_added`, `member_removed`) fires once, on the node that made it.
public struct ClusterClaim: Sendable, Hashable {
    /// The app's id.
    public var app: String
    /// The channel.
    public var channel: String
    /// The presence member; nil for the channel's occupancy.
    public var user: String?
    /// True when the node arrived, false when it left.
    public var joined: Bool

    /// Creates a claim.
    public init(app: String, channel: String, user: String? = nil, joined: Bool) {
        self.app = app
        self.channel = channel
        self.user = user
        self.joined = joined
    }

    /// The webhook event the cluster's change fires.
    public var webhook: WebhookEvent {
        guard let user else { return WebhookEvent(joined ? .channelOccupied : .channelVacated, channel: channel) }
        return WebhookEvent(joined ? .memberAdded : .memberRemoved, channel: channel, userID: user)
    }

    /// The name of what the claim is about, unique per app, channel and member: the fields
    /// joined by NUL bytes (no app id or channel name contains one).
    public var subject: [UInt8] {
        var bytes = Array(app.utf8) + [0] + Array(channel.utf8)
        if let user { bytes += [0] + Array(user.utf8) }
        return bytes
    }

    /// Reads a `subject` back (as a claim that `joined`); nil for bytes that are not one.
    public init?(subject: [UInt8], joined: Bool) {
        let parts = subject.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let app = String(validating: parts[0], as: UTF8.self),
            let channel = String(validating: parts[1], as: UTF8.self)
        else { return nil }
        let user = parts.count == 3 ? String(validating: parts[2], as: UTF8.self) : nil
        if parts.count == 3, user == nil { return nil }
        self.init(app: app, channel: channel, user: user, joined: joined)
    }

    /// Whether a webhook is one the cluster decides with claims (the others are each node's own).
    static func decides(_ kind: WebhookEventKind) -> Bool {
        switch kind {
        case .channelOccupied, .channelVacated, .memberAdded, .memberRemoved: true
        default: false
        }
    }
}
