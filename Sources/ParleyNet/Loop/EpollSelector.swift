#if os(Linux)
import CLinux
import Glibc

/// ``Selector`` over Linux epoll, level-triggered.
///
/// Level- rather than edge-triggered: a connection can then read one buffer's worth per wake
/// and yield to others (the kernel keeps reporting the rest), a short read needs no extra
/// `read` returning EAGAIN to re-arm, and the semantics match the `poll()` backend exactly.
/// Write interest is added only while a connection has queued output, so idle sockets
/// never report writability.
final class EpollSelector: Selector {
    private let epfd: Int32
    private let capacity: Int32
    private let buffer: UnsafeMutablePointer<epoll_event>

    init(capacity: Int = 1024) throws(NetError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw NetError.fromErrno(errno, "epoll_create1") }
        epfd = fd
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
        guard clinux_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, Self.mask(interest), token) == 0 else {
            throw NetError.fromErrno(errno, "epoll_ctl(ADD)")
        }
    }

    func reregister(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError) {
        guard clinux_epoll_ctl(epfd, EPOLL_CTL_MOD, fd, Self.mask(interest), token) == 0 else {
            throw NetError.fromErrno(errno, "epoll_ctl(MOD)")
        }
    }

    func deregister(fd: Int32) {
        _ = clinux_epoll_ctl(epfd, EPOLL_CTL_DEL, fd, 0, 0)
    }

    func wait(timeoutMilliseconds: Int32, into events: UnsafeMutableBufferPointer<SelectorEvent>) -> Int {
        let max = Swift.min(capacity, Int32(events.count))
        let n = clinux_epoll_wait(epfd, buffer, max, timeoutMilliseconds)
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
        _ = Glibc.close(epfd)
        clinux_epoll_events_free(buffer)
    }
}
#endif
