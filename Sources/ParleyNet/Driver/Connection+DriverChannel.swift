extension Connection: DriverChannel {
    var isOnChannelThread: Bool { loop.inEventLoop }

    func hop(_ work: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { work() } else { loop.execute(work) }
    }

    func scheduleLocal(after delay: Duration, _ task: @escaping () -> Void) -> TimerHandle {
        loop.scheduleLocal(after: delay, task)
    }
}
