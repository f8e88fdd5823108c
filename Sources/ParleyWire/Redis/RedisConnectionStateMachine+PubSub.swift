extension RedisConnectionStateMachine {
    /// Adds channels or patterns to the subscription set; the new ones are subscribed now if
    /// the connection is ready, otherwise once it is. Targets already confirmed are reported
    /// as ``Action/subscribed(_:)`` at once.
    public mutating func subscribe(_ targets: [RedisSubscriptionTarget], now: Int64) -> [Action] {
        guard phase != .closed else { return [] }
        var actions: [Action] = []
        var fresh: [RedisSubscriptionTarget] = []
        for target in Set(targets).sorted() {
            if subscriptions.insert(target).inserted {
                fresh.append(target)
            } else if confirmed.contains(target) {
                actions.append(.subscribed(target))
            }
        }
        guard phase == .ready, !fresh.isEmpty else { return actions }
        actions.append(.write(subscribeCommands(for: fresh, now: now)))
        return actions
    }

    /// Removes channels or patterns from the subscription set and unsubscribes them if the
    /// connection is ready. The connection leaves subscriber mode when the server reports none left.
    public mutating func unsubscribe(_ targets: [RedisSubscriptionTarget], now: Int64) -> [Action] {
        let gone = Set(targets).filter { subscriptions.remove($0) != nil }.sorted()
        for target in gone { confirmed.remove(target) }
        guard phase == .ready, connectionInSubscriberMode, !gone.isEmpty else { return [] }
        return [.write(commands(gone, channelVerb: "UNSUBSCRIBE", patternVerb: "PUNSUBSCRIBE", now: now))]
    }

    /// `SUBSCRIBE`/`PSUBSCRIBE` for `targets`, recording the confirmations owed.
    mutating func subscribeCommands(for targets: [RedisSubscriptionTarget], now: Int64) -> [UInt8] {
        guard !targets.isEmpty else { return [] }
        connectionInSubscriberMode = true
        return commands(targets, channelVerb: "SUBSCRIBE", patternVerb: "PSUBSCRIBE", now: now)
    }

    private mutating func commands(
        _ targets: [RedisSubscriptionTarget], channelVerb: String, patternVerb: String,
        now: Int64
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        let channels = targets.filter { if case .channel = $0 { true } else { false } }
        let patterns = targets.filter { if case .pattern = $0 { true } else { false } }
        for (verb, group) in [(channelVerb, channels), (patternVerb, patterns)] where !group.isEmpty {
            RESPCommand([Array(verb.utf8)] + group.map(\.name)).encode(into: &bytes)
            if confirmations.isEmpty { confirmationSentAt = now }
            for target in group { confirmations.append(Confirmation(kind: verb.lowercased(), target: target)) }
        }
        return bytes
    }

    /// `message`, `pmessage`, a (un)subscribe confirmation or a subscriber-mode `pong`.
    mutating func handlePubSub(_ items: [RESPValue], now: Int64) -> [Action] {
        guard let kindBytes = items.first?.bytes else { return unexpected(items, now: now) }
        let kind = String(decoding: kindBytes, as: UTF8.self)
        switch (kind, items.count) {
        case ("message", 3):
            guard let channel = items[1].bytes, let payload = items[2].bytes else { return unexpected(items, now: now) }
            return [.message(RedisPubSubMessage(channel: channel, payload: payload))]
        case ("pmessage", 4):
            guard let pattern = items[1].bytes, let channel = items[2].bytes, let payload = items[3].bytes else {
                return unexpected(items, now: now)
            }
            return [.message(RedisPubSubMessage(channel: channel, pattern: pattern, payload: payload))]
        case ("subscribe", 3), ("psubscribe", 3), ("unsubscribe", 3), ("punsubscribe", 3):
            return confirm(kind, items, now: now)
        case ("pong", _):
            guard let entry = outstanding.popFirst() else { return unexpected(items, now: now) }
            if case .command(let id) = entry.expected { return [.succeed(id, .array(items))] }
            return []
        default:
            return unexpected(items, now: now)
        }
    }

    private mutating func confirm(_ kind: String, _ items: [RESPValue], now: Int64) -> [Action] {
        guard let name = items[1].bytes, case .integer(let remaining) = items[2],
            let owed = confirmations.first, owed.kind == kind, owed.target.name == name
        else {
            return unexpected(items, now: now)
        }
        _ = confirmations.popFirst()
        confirmationSentAt = now
        if remaining == 0 && confirmations.isEmpty { connectionInSubscriberMode = false }
        guard kind.hasSuffix("subscribe"), !kind.hasSuffix("unsubscribe"), subscriptions.contains(owed.target) else {
            return []
        }
        confirmed.insert(owed.target)
        return [.subscribed(owed.target)]
    }

    private mutating func unexpected(_ items: [RESPValue], now: Int64) -> [Action] {
        lose(
            RedisError(.unexpectedReply, "unexpected pub/sub reply: \(Self.summary(.array(items)))"),
            now: now, closeSocket: true)
    }
}
