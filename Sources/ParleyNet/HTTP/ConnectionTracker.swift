/// Something a server can ask to wind down (HTTP connections finish their requests,
/// WebSockets close with 1001).
protocol GracefulShutdown: AnyObject {
    /// Start closing politely; the member removes itself from its tracker once closed.
    func beginGracefulShutdown()
    /// Close now (the grace period is over).
    func forceClose()
}

/// The open connections of one server on one loop, for graceful shutdown. Loop-confined.
final class ConnectionTracker: @unchecked Sendable {
    // @unchecked: used only on `loop` (the server reaches it through loop.execute).
    let loop: EventLoop
    private var members: [ObjectIdentifier: any GracefulShutdown] = [:]
    private(set) var draining = false
    private var onEmpty: (() -> Void)?
    private var deadline: TimerHandle?

    init(loop: EventLoop) { self.loop = loop }

    var count: Int { members.count }

    func add(_ member: any GracefulShutdown) { members[ObjectIdentifier(member)] = member }

    func remove(_ member: any GracefulShutdown) {
        guard members.removeValue(forKey: ObjectIdentifier(member)) != nil else { return }
        if draining && members.isEmpty { finish() }
    }

    /// Asks every member to wind down; `done` runs once all are gone or after `grace`.
    func drain(grace: Duration, _ done: @escaping () -> Void) {
        guard !draining else { return }
        draining = true
        onEmpty = done
        if members.isEmpty {
            finish()
            return
        }
        deadline = loop.scheduleLocal(after: grace) { [self] in
            deadline = nil
            for member in Array(members.values) { member.forceClose() }
            members.removeAll()
            finish()
        }
        for member in Array(members.values) { member.beginGracefulShutdown() }
    }

    private func finish() {
        deadline?.cancel()
        deadline = nil
        let done = onEmpty
        onEmpty = nil
        done?()
    }
}
