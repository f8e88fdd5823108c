import ParleyWire

extension PusherConnection {
    /// Handles a `client-` event: app switch, channel kind, membership, size and rate (4301).
    mutating func clientEvent(_ message: PusherMessage, now: Int64) -> [PusherConnectionAction] {
        guard app.clientEvents else { return reject("Client events are not enabled for this app") }
        guard let name = message.channel else { return reject("Client events need a channel") }
        guard let subscription = subscriptions[name], subscription.state == .subscribed else {
            return reject("Client event rejected: not subscribed to \(name)")
        }
        guard subscription.channel.allowsClientEvents else {
            return reject("Client events are only allowed on private and presence channels")
        }
        guard admitByRate(now: now) else {
            guard !rateErrorSentInWindow else { return [] }
            rateErrorSentInWindow = true
            return reject("Client event rejected: more than \(app.limits.clientEventsPerSecond) per second")
        }
        let data = message.data ?? .null
        let sender = verifiedSender(subscription)
        if let claim = Self.claimedIdentity(in: data, differingFrom: sender) {
            return reject(
                "Client event rejected: data.\(claim) names a user the server has not verified as the sender; "
                    + "receivers read the sender from the event's user_id (sign in first)")
        }
        let frame = PusherFrame.channelEvent(event: message.event, channel: name, data: data, userID: sender)
        guard frame.count <= app.limits.maxEventBytes + 512 + name.utf8.count + message.event.utf8.count else {
            return reject("Client event rejected: data larger than \(app.limits.maxEventBytes) bytes")
        }
        return [.clientEvent(PusherClientEvent(channel: name, event: message.event, data: data, userID: sender, frame: frame))]
    }

    /// The user id the server vouches for: the presence member's on a presence channel, else
    /// the signed-in user's (`pusher:signin`, signed by the app). Nil for an anonymous sender.
    func verifiedSender(_ subscription: Subscription) -> String? {
        subscription.presenceUserID ?? user?.userID
    }

    /// The identity field (`user_id` or `sender_id`) of an object `data` that names someone
    /// other than `sender`; nil when there is none or it names the sender. Receivers of the
    /// chat's own `typing` relied on `data.user_id`, so a client may not put words there that
    /// the server would not stamp itself.
    static func claimedIdentity(in data: JSONValue, differingFrom sender: String?) -> String? {
        guard let object = data.objectValue else { return nil }
        for key in ["user_id", "sender_id"] {
            switch object[key] {
            case .none, .null?: continue
            case .string(let named)?, .number(let named)?: if named != sender { return key }
            default: return key
            }
        }
        return nil
    }

    /// A fixed one-second window: cheap, and exact enough for a per-connection limit.
    private mutating func admitByRate(now: Int64) -> Bool {
        if now - rateWindowStart >= 1000 {
            rateWindowStart = now
            rateWindowCount = 0
            rateErrorSentInWindow = false
        }
        rateWindowCount += 1
        return rateWindowCount <= app.limits.clientEventsPerSecond
    }

    private func reject(_ message: String) -> [PusherConnectionAction] {
        [.send(PusherFrame.error(code: PusherErrorCode.clientEventRejected.rawValue, message: message))]
    }
}
