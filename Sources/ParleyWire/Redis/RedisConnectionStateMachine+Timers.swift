extension RedisConnectionStateMachine {
    /// When ``tick(now:)`` next has something to do (a connect or login running out of time,
    /// the oldest reply overdue, a keepalive PING due, the next reconnect); nil when nothing is pending.
    public var nextDeadline: Int64? {
        switch phase {
        case .idle, .closed:
            return nil
        case .connecting, .authenticating, .waitingToReconnect:
            return phaseDeadline
        case .ready:
            var deadlines: [Int64] = []
            if let timeout = configuration.replyTimeout {
                if let oldest = outstanding.first { deadlines.append(oldest.sentAt + timeout) }
                if !confirmations.isEmpty { deadlines.append(confirmationSentAt + timeout) }
            }
            if let interval = configuration.pingInterval, outstanding.isEmpty { deadlines.append(lastRead + interval) }
            return deadlines.min()
        }
    }

    /// Time passed: times out a stuck connect, login or reply, sends a keepalive PING after
    /// `pingInterval` without a byte from the server, and starts a due reconnect.
    public mutating func tick(now: Int64) -> [Action] {
        switch phase {
        case .idle, .closed:
            return []
        case .connecting, .authenticating:
            guard now >= phaseDeadline else { return [] }
            let what = phase == .connecting ? "connecting to" : "logging in to"
            return lose(RedisError(.timedOut, "\(what) \(configuration.url) took too long"), now: now, closeSocket: true)
        case .waitingToReconnect:
            guard now >= phaseDeadline else { return [] }
            return beginConnecting(now: now)
        case .ready:
            return tickReady(now: now)
        }
    }

    private mutating func tickReady(now: Int64) -> [Action] {
        if let timeout = configuration.replyTimeout {
            let overdue =
                (outstanding.first.map { now >= $0.sentAt + timeout } ?? false)
                || (!confirmations.isEmpty && now >= confirmationSentAt + timeout)
            if overdue {
                return lose(
                    RedisError(.timedOut, "no reply from \(configuration.url) within \(timeout) ms"),
                    now: now, closeSocket: true)
            }
        }
        if let interval = configuration.pingInterval, outstanding.isEmpty, now >= lastRead + interval {
            outstanding.append(Outstanding(expected: .keepalive, sentAt: now))
            return [.write(RESPCommand("PING").encoded)]
        }
        return []
    }
}
