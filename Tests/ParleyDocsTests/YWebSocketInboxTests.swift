import ParleyDocs
import Testing

/// The inbox of a y-websocket connection: order, the waiting session, the peer's close, the
/// hard bound, and a revocation that drops what is queued and lifts the pause.
@Suite struct YWebSocketInboxTests {
    typealias Inbox = YWebSocketInbox<Int>

    /// A small inbox: pauses at two messages, closes past 1000 bytes.
    static func inbox() -> Inbox {
        Inbox(limits: .init(pauseMessages: 2, pauseBytes: 500, closeBytes: 1000))
    }

    static func message(_ taken: (next: Inbox.Next, resume: Bool)?) -> Int? {
        guard case .message(let message)? = taken?.next else { return nil }
        return message
    }

    static func isClosed(_ taken: (next: Inbox.Next, resume: Bool)?) -> Bool {
        guard case .closed? = taken?.next else { return false }
        return true
    }

    static func revokedReason(_ taken: (next: Inbox.Next, resume: Bool)?) -> String? {
        guard case .revoked(let reason)? = taken?.next else { return nil }
        return reason
    }

    @Test func queuedMessagesComeBeforeThePeersClose() {
        var inbox = Self.inbox()
        #expect(inbox.receive(1, bytes: 10) == .queued)
        #expect(inbox.receive(2, bytes: 10) == .pause)
        #expect(inbox.end() == false, "nobody waits")
        #expect(inbox.receive(3, bytes: 10) == .dropped, "after the close")
        let first = inbox.take()
        #expect(Self.message(first) == 1 && first?.resume == true, "one left: half the bound")
        #expect(Self.message(inbox.take()) == 2)
        #expect(Self.isClosed(inbox.take()))
        #expect(Self.isClosed(inbox.take()), "the end stays the end")
    }

    @Test func aWaitingSessionIsHandedWhatArrives() {
        var inbox = Self.inbox()
        #expect(inbox.take() == nil && inbox.isWaiting)
        #expect(inbox.receive(1, bytes: 10) == .handOver)
        #expect(!inbox.isWaiting && inbox.backlog.count == 0)
        #expect(inbox.take() == nil)
        #expect(inbox.end() == true, "the close is handed over too")
        #expect(!inbox.isWaiting)
    }

    @Test func passingTheHardBoundEndsTheInbox() {
        var inbox = Self.inbox()
        #expect(inbox.receive(1, bytes: 600) == .pause)
        #expect(inbox.receive(2, bytes: 600) == .overflow)
        #expect(Self.isClosed(inbox.take()), "the queued messages went with the overflow")
        #expect(inbox.receive(3, bytes: 1) == .dropped)
    }

    @Test func aRevocationDropsWhatIsQueuedAndLiftsThePause() {
        var inbox = Self.inbox()
        #expect(inbox.receive(1, bytes: 10) == .queued)
        #expect(inbox.receive(2, bytes: 10) == .pause)
        #expect(inbox.receive(3, bytes: 10) == .queued, "one read's remaining frames still queue")
        #expect(inbox.isPaused)
        #expect(inbox.revoke(reason: "member_removed") == (first: true, handOver: false))
        // Reading resumes, so the peer's answer to the 4410 close is read (and dropped).
        #expect(!inbox.isPaused && inbox.backlog.count == 0 && inbox.backlog.bytes == 0)
        #expect(Self.revokedReason(inbox.take()) == "member_removed", "not message 1")
        #expect(inbox.receive(4, bytes: 10) == .dropped)
        #expect(inbox.end() == false)
        #expect(Self.revokedReason(inbox.take()) == "member_removed", "the close does not replace it")
        #expect(inbox.revoke(reason: "room_deleted") == (first: false, handOver: false), "once")
    }

    @Test func aWaitingSessionIsHandedTheRevocation() {
        var inbox = Self.inbox()
        #expect(inbox.take() == nil)
        #expect(inbox.revoke(reason: "left") == (first: true, handOver: true))
        #expect(!inbox.isWaiting)
        #expect(inbox.receive(1, bytes: 10) == .dropped)
    }

    @Test func aRevocationAfterThePeersCloseStillDropsTheQueue() {
        var inbox = Self.inbox()
        #expect(inbox.receive(1, bytes: 10) == .queued)
        #expect(inbox.end() == false)
        #expect(inbox.revoke(reason: "user_deleted").first)
        #expect(Self.revokedReason(inbox.take()) == "user_deleted")
    }
}
