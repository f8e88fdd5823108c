import ParleyPlatform

/// The terminal in raw mode on the alternate screen, and the way back.
///
/// ``enter()`` saves the settings, switches to raw input and the alternate screen; ``restore()``
/// undoes it (idempotent). The saved state also lives in fixed memory that a crash handler
/// (SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGABRT) uses to put the terminal back before
/// the previous handler runs — a crash never leaves the shell in raw mode.
public final class RawTerminal: @unchecked Sendable {
    // @unchecked: entered and restored from the main thread only; the crash handler reads the
    // preallocated copies, which are written before handlers are installed.
    private let input: Int32
    private let output: Int32
    private var active = false

    /// Entering: alternate screen, no autowrap, then the first frame draws everything.
    static let enterSequence = Array("\u{1B}[?1049h\u{1B}[?7l\u{1B}[0m\u{1B}[2J".utf8)
    /// Leaving: styles reset, cursor shown, autowrap back, main screen back.
    static let leaveSequence = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?7h\u{1B}[?1049l".utf8)

    /// A terminal on `input`/`output` (standard input and output by default).
    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    /// Whether both ends are terminals.
    public var isTerminal: Bool { isatty(input) == 1 && isatty(output) == 1 }

    /// The size now (80×24 when the terminal does not say).
    public func size() -> TerminalSize {
        var size = winsize()
        let request = UInt(TIOCGWINSZ)
        guard ioctl(output, request, &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return TerminalSize(rows: 24, columns: 80) }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }

    /// Switches to raw mode and the alternate screen.
    public func enter() throws(TerminalError) {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw TerminalError.fromErrno("tcgetattr") }
        CrashRestore.arm(input: input, output: output, saved: saved, leave: Self.leaveSequence)
        var raw = saved
        cfmakeraw(&raw)
        // Keep output post-processing off (cfmakeraw) but block for one byte at a time.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            CrashRestore.disarm()
            throw TerminalError.fromErrno("tcsetattr")
        }
        active = true
        writeAll(Self.enterSequence)
    }

    /// Leaves the alternate screen and restores the saved settings; safe to call twice.
    public func restore() {
        guard active else { return }
        active = false
        writeAll(Self.leaveSequence)
        CrashRestore.restoreSettings()
        CrashRestore.disarm()
    }

    /// Writes all of `bytes` to the terminal (retrying short writes and EINTR).
    public func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(output, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
