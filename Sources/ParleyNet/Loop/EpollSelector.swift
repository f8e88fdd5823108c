#if os(Linux)
import CLinux
import Glibc
import ParleySystem

/// ``Selector`` over Linux epoll, level-triggered.
///
/// Level- rather than edge-triggered: a connection can then read one buffer's worth per wake
/// and yield to others (the kernel keeps reporting the rest), a short read needs no extra
/// `read` returning EAGAIN to re-arm, and the semantics match the `poll()` backend exactly.
/// Write interest is added only while a connection has queued output, so idle sockets
/// never report writability.
final class EpollSelector: Selector {
    /// The epoll instance; nil once closed.
    private var epoll: FileDescriptor?
    private let capacity: Int32
    private let buffer: UnsafeMutablePointer<epoll_event>

    init(capacity: Int = 1024) throws(NetError) {
        do {
            epoll = try FileDescriptor.opening("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        } catch {
            throw NetError(error)
        }
        self.capacity = Int32(capacity)
        buffer = clinux_epoll_events_alloc(Int32(capacity))
    }

    private static func mask(_ interest: SelectorInterest) -> UInt32 {
        var events: UInt32 = 0
        // RDHUP only with read interest: level-triggered, it would otherwise keep firing
        // for a half-closed peer while the connection has deliberately paused reading.
        if interest.contains(.read) { events |= UInt32(EPOLLIN.rawValue | EPOLLRDHUP.rawValue) }
        if interest.contains(.write) { events |= UInt32(EPOLLOUT.rawValue) }
        return events
    }

    func register(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError) {
        try control(EPOLL_CTL_ADD, "epoll_ctl(ADD)", fd: fd, events: Self.mask(interest), token: token)
    }

    func reregister(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError) {
        try control(EPOLL_CTL_MOD, "epoll_ctl(MOD)", fd: fd, events: Self.mask(interest), token: token)
    }

    func deregister(fd: Int32) {
        try? control(EPOLL_CTL_DEL, "epoll_ctl(DEL)", fd: fd, events: 0, token: 0)
    }

    private func control(_ operation: Int32, _ name: StaticString, fd: Int32, events: UInt32, token: UInt64) throws(NetError) {
        let done: Int32?
        do {
            done = try epoll?.withRawValue { epfd throws(SystemCallError) in
                try SystemCall.retrying(name) { clinux_epoll_ctl(epfd, operation, fd, events, token) }
            }
        } catch {
            throw NetError(error)
        }
        if done == nil { throw NetError.fromErrno(EBADF, name.description) }
    }

    func wait(timeoutMilliseconds: Int32, into events: UnsafeMutableBufferPointer<SelectorEvent>) -> Int {
        let max = Swift.min(capacity, Int32(events.count))
        // An interrupted wait (EINTR) simply returns nothing: the loop checks its timers and
        // waits again, so it is not retried here with a timeout that no longer holds.
        let n = epoll?.withRawValue { clinux_epoll_wait($0, buffer, max, timeoutMilliseconds) } ?? 0
        guard n > 0 else { return 0 }
        let readMask = UInt32(EPOLLIN.rawValue)
        let writeMask = UInt32(EPOLLOUT.rawValue)
        let hangMask = UInt32(EPOLLHUP.rawValue | EPOLLERR.rawValue)
        for i in 0..<Int(n) {
            let flags = clinux_epoll_event_flags(buffer, Int32(i))
            events[i] = SelectorEvent(
                token: clinux_epoll_event_data(buffer, Int32(i)),
                readable: flags & readMask != 0,
                writable: flags & writeMask != 0,
                hangup: flags & hangMask != 0)
        }
        return Int(n)
    }

    func close() {
        guard let epoll = epoll.take() else { return }
        try? epoll.close()
        clinux_epoll_events_free(buffer)
    }
}
#endif
