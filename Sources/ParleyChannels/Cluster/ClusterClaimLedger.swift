/// The claims this node sent to the store and the subscriptions whose answer waits for one.
///
/// A subscription's `subscription_succeeded` goes out only once the store has the latest
/// claim about its channel from this node (`ClusterChannelHub.answerAfterClaims`): a client
/// that saw it and then makes the channel's last subscriber leave on another node acts after
/// this node's arrival is counted, so that leave cannot find the channel empty. Claims of one
/// node reach the store in the order they were sent, so the latest one about a channel being
/// answered means every earlier one is too.
struct ClusterClaimLedger {
    private var sent: UInt64 = 0
    /// The latest claim sent about each channel, while it is unanswered.
    private var latest: [ClusterChannelKey: UInt64] = [:]
    /// Answers waiting for a claim, by its number.
    private var waiting: [UInt64: [@Sendable () -> Void]] = [:]

    /// Numbers a claim about `key` about to be sent.
    mutating func send(_ key: ClusterChannelKey) -> UInt64 {
        sent += 1
        latest[key] = sent
        return sent
    }

    /// Keeps `answer` until the latest claim about `key` is answered; false (and `answer`
    /// dropped) when none is outstanding.
    mutating func wait(for key: ClusterChannelKey, _ answer: @escaping @Sendable () -> Void) -> Bool {
        guard let number = latest[key] else { return false }
        waiting[number, default: []].append(answer)
        return true
    }

    /// The store answered claim `number` about `key` (or could not be reached): the answers
    /// that waited for it, to be called without any lock held.
    mutating func answered(_ number: UInt64, about key: ClusterChannelKey) -> [@Sendable () -> Void] {
        if latest[key] == number { latest[key] = nil }
        return waiting.removeValue(forKey: number) ?? []
    }
}
