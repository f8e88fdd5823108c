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
        let frame = PusherFrame.channelEvent(event: message.event, channel: name, data: data, userID: subscription.presenceUserID)
        guard frame.count <= app.limits.maxEventBytes + 512 + name.utf8.count + message.event.utf8.count else {
            return reject("Client event rejected: data larger than \(app.limits.maxEventBytes) bytes")
        }
        return [.clientEvent(PusherClientEvent(channel: name, event: message.event, data: data,
                                               userID: subscription.presenceUserID, frame: frame))]
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
