import CLinux
import CSignalPipe
import ParleyPlatform

/// Signals as bytes on a pipe: the handler (in CSignalPipe) writes the signal number, the main
/// loop polls the read end with the keyboard. Also a wake-up channel for the loop itself.
final class SignalPipe: @unchecked Sendable {
    // @unchecked: the descriptors are immutable after init; writes to a pipe are thread-safe.
    let readFD: Int32
    let writeFD: Int32

    /// The byte written by ``wake()`` (no signal has number 0).
    static let wakeByte: UInt8 = 0

    init() throws(TerminalError) {
        var fds: [Int32] = [-1, -1]
        guard clinux_pipe2_nonblocking(&fds) == 0 else { throw TerminalError.fromErrno("pipe2") }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Routes `signals` into the pipe.
    func install(_ signals: [Int32]) throws(TerminalError) {
        for signal in signals where parley_signal_pipe_route(writeFD, signal) != 0 {
            throw TerminalError.fromErrno("sigaction")
        }
    }

    /// Puts the default handlers back.
    func uninstall(_ signals: [Int32]) {
        for signal in signals { _ = parley_signal_pipe_restore_default(signal) }
    }

    /// Wakes the loop (any thread).
    func wake() {
        var byte = Self.wakeByte
        _ = write(writeFD, &byte, 1)
    }

    /// The bytes waiting (signal numbers and wake bytes).
    func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &buffer, buffer.count)
            guard n > 0 else { break }
            out += buffer.prefix(n)
        }
        return out
    }
}
