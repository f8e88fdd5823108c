import ParleyPlatform

/// ``Selector`` over POSIX `poll()`: a dense `pollfd` array with an fd → index map.
///
/// Registration changes are O(1) (swap-remove); a wait is O(registered fds), which is why
/// epoll is the default. Readiness is reported round-robin from a rotating start so that a
/// full event buffer cannot starve the fds at the end of the array.
final class PollSelector: Selector {
    private var fds: [pollfd] = []
    private var tokens: [UInt64] = []
    private var indexOfFD: [Int32: Int] = [:]
    private var rotation = 0

    init() {}

    private static func mask(_ interest: SelectorInterest) -> Int16 {
        var events: Int16 = 0
        if interest.contains(.read) { events |= Int16(POLLIN) }
        if interest.contains(.write) { events |= Int16(POLLOUT) }
        return events
    }

    func register(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError) {
        guard indexOfFD[fd] == nil else { throw NetError(.io, errno: EEXIST, "poll register: fd \(fd) already registered") }
        indexOfFD[fd] = fds.count
        fds.append(pollfd(fd: fd, events: Self.mask(interest), revents: 0))
        tokens.append(token)
    }

    func reregister(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError) {
        guard let index = indexOfFD[fd] else { throw NetError(.io, errno: ENOENT, "poll reregister: fd \(fd) unknown") }
        fds[index].events = Self.mask(interest)
        tokens[index] = token
    }

    func deregister(fd: Int32) {
        guard let index = indexOfFD.removeValue(forKey: fd) else { return }
        let last = fds.count - 1
        if index != last {
            fds[index] = fds[last]
            tokens[index] = tokens[last]
            indexOfFD[fds[index].fd] = index
        }
        fds.removeLast()
        tokens.removeLast()
    }

    func wait(timeoutMilliseconds: Int32, into events: UnsafeMutableBufferPointer<SelectorEvent>) -> Int {
        let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        guard ready > 0 else { return 0 }
        let count = fds.count
        var written = 0
        rotation = count == 0 ? 0 : (rotation + 1) % count
        var scanned = 0
        while scanned < count && written < events.count {
            let i = (rotation + scanned) % count
            scanned += 1
            let revents = fds[i].revents
            guard revents != 0 else { continue }
            fds[i].revents = 0
            events[written] = SelectorEvent(
                token: tokens[i],
                readable: revents & Int16(POLLIN) != 0,
                writable: revents & Int16(POLLOUT) != 0,
                hangup: revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0)
            written += 1
        }
        return written
    }

    func close() {
        fds.removeAll()
        tokens.removeAll()
        indexOfFD.removeAll()
    }
}
