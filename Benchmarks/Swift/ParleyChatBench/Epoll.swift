import CLinux
import Glibc

/// An owned epoll instance and its event buffer; tokens are caller-chosen 64-bit values.
final class Epoll {
    private let descriptor: Int32
    private let events: UnsafeMutablePointer<epoll_event>
    private let capacity: Int32 = 1_024

    init() throws(BenchError) {
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw BenchError("epoll", "epoll_create1: \(BenchSocket.errnoText())") }
        guard let buffer = clinux_epoll_events_alloc(capacity) else {
            Glibc.close(descriptor)
            throw BenchError("epoll", "out of memory")
        }
        events = buffer
    }

    deinit {
        clinux_epoll_events_free(events)
        Glibc.close(descriptor)
    }

    /// Level-triggered readiness for reading, plus writing when `writable`.
    private static func mask(writable: Bool) -> UInt32 {
        EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (writable ? EPOLLOUT.rawValue : 0)
    }

    func add(_ socket: Int32, token: UInt64, writable: Bool = false) throws(BenchError) {
        guard clinux_epoll_ctl(descriptor, EPOLL_CTL_ADD, socket, Self.mask(writable: writable), token) == 0 else {
            throw BenchError("epoll", "EPOLL_CTL_ADD: \(BenchSocket.errnoText())")
        }
    }

    func modify(_ socket: Int32, token: UInt64, writable: Bool) throws(BenchError) {
        guard clinux_epoll_ctl(descriptor, EPOLL_CTL_MOD, socket, Self.mask(writable: writable), token) == 0 else {
            throw BenchError("epoll", "EPOLL_CTL_MOD: \(BenchSocket.errnoText())")
        }
    }

    func remove(_ socket: Int32) {
        _ = clinux_epoll_ctl(descriptor, EPOLL_CTL_DEL, socket, 0, 0)
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) and calls `body(token, readable,
    /// writable, failed)` for each ready socket; returns the number of events.
    @discardableResult
    func wait(timeoutMilliseconds: Int32, _ body: (UInt64, Bool, Bool, Bool) throws(BenchError) -> Void) throws(BenchError) -> Int {
        try dispatch(clinux_epoll_wait(descriptor, events, capacity, timeoutMilliseconds), body)
    }

    /// `wait` with a timeout in nanoseconds, so a wait can end exactly at a due time.
    @discardableResult
    func wait(timeoutNanoseconds: UInt64, _ body: (UInt64, Bool, Bool, Bool) throws(BenchError) -> Void) throws(BenchError) -> Int {
        try dispatch(clinux_epoll_wait_nanoseconds(descriptor, events, capacity, Int64(timeoutNanoseconds)), body)
    }

    private func dispatch(_ count: Int32, _ body: (UInt64, Bool, Bool, Bool) throws(BenchError) -> Void) throws(BenchError) -> Int {
        if count < 0 {
            if errno == EINTR { return 0 }
            throw BenchError("epoll", "epoll_wait: \(BenchSocket.errnoText())")
        }
        for index in 0..<count {
            let flags = clinux_epoll_event_flags(events, index)
            let failed = flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
            try body(
                clinux_epoll_event_data(events, index), flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                flags & EPOLLOUT.rawValue != 0, failed)
        }
        return Int(count)
    }
}
