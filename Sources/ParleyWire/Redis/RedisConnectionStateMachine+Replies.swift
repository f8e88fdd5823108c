extension RedisConnectionStateMachine {
    /// Bytes arrived on the current connection.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, now: Int64) -> [Action] {
        guard phase == .authenticating || phase == .ready else { return [] }
        parser.receive(bytes)
        return drain(now: now)
    }

    /// Bytes arrived on the current connection.
    public mutating func receive(_ bytes: [UInt8], now: Int64) -> [Action] {
        bytes.withUnsafeBytes { receive($0, now: now) }
    }

    private mutating func drain(now: Int64) -> [Action] {
        lastRead = now
        var actions: [Action] = []
        while phase == .authenticating || phase == .ready {
            let value: RESPValue
            do throws(RESPError) {
                guard let next = try parser.next() else { break }
                value = next
            } catch {
                actions += lose(RedisError(.protocolError, error.description), now: now, closeSocket: true)
                break
            }
            actions += handle(value, now: now)
        }
        return actions
    }

    /// One complete reply: pub/sub traffic, or the answer to the oldest outstanding command.
    mutating func handle(_ value: RESPValue, now: Int64) -> [Action] {
        if case .push(let items) = value { return handlePubSub(items, now: now) }
        if connectionInSubscriberMode, case .array(let items) = value, let kind = items.first?.bytes,
            Self.pubSubKinds.contains(kind)
        {
            return handlePubSub(items, now: now)
        }
        guard let entry = outstanding.popFirst() else {
            return lose(
                RedisError(.unexpectedReply, "a reply with no command outstanding: \(Self.summary(value))"),
                now: now, closeSocket: true)
        }
        switch entry.expected {
        case .command(let id):
            if case .error(let message) = value { return [.fail(id, RedisError(.serverError, message))] }
            return [.succeed(id, value)]
        case .discarded, .keepalive:
            return []
        case .auth:
            if case .error(let message) = value {
                return lose(RedisError(.authenticationFailed, message), now: now, closeSocket: true)
            }
            return finishHandshakeStep(now: now)
        case .select:
            if case .error(let message) = value {
                return lose(RedisError(.selectFailed, message), now: now, closeSocket: true)
            }
            return finishHandshakeStep(now: now)
        }
    }

    private mutating func finishHandshakeStep(now: Int64) -> [Action] {
        guard phase == .authenticating, outstanding.isEmpty else { return [] }
        return becomeReady(now: now)
    }

    static let pubSubKinds: Set<[UInt8]> = Set(
        ["message", "pmessage", "subscribe", "psubscribe", "unsubscribe", "punsubscribe", "pong"].map { Array($0.utf8) })

    /// A short, printable description of a reply for error messages (never the whole payload).
    static func summary(_ value: RESPValue) -> String {
        let text = String(describing: value)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
