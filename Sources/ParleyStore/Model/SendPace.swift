/// Slow mode for one send: the store refuses it when the sender's previous paced send in the
/// room was less than `intervalMilliseconds` before `now`, and otherwise records `now` as that
/// send, in the send's own transaction (so every node sharing the database sees the same pace).
public struct SendPace: Sendable, Hashable {
    /// The room's slow-mode interval.
    public var intervalMilliseconds: Int64
    /// The send's time by the caller's wall clock (milliseconds since the epoch).
    public var now: Int64

    /// A pace of one send per `intervalMilliseconds`, for a send at `now`.
    public init(intervalMilliseconds: Int64, now: Int64) {
        self.intervalMilliseconds = intervalMilliseconds
        self.now = now
    }

    /// The whole seconds to wait after a send at `last`, or nil when a send now is allowed.
    public func wait(after last: Int64?) -> Int64? {
        guard let last, now - last < intervalMilliseconds else { return nil }
        return (intervalMilliseconds - (now - last) + 999) / 1000
    }
}
