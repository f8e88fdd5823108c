import ParleyPlatform

/// Runs a ``ChatController`` on the real terminal: the calling thread polls the keyboard and
/// a signal pipe, a task writes the controller's frames as row diffs, and the terminal is
/// restored however the session ends (`/quit`, Ctrl-C, SIGTERM/SIGHUP, end of input, crash).
public final class ChatTerminalSession: Sendable {
    private enum InputEvent: Sendable {
        case key(TerminalKey)
        case resize(TerminalSize)
    }

    private let terminal: RawTerminal
    /// How long a lone ESC waits for the rest of a sequence.
    private let escapeTimeoutMilliseconds: Int32 = 40
    /// How long a requested quit may take before the terminal is restored regardless.
    private let quitGraceMilliseconds: Int64 = 3000
    private static let exitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// A session on standard input and output.
    public init(terminal: RawTerminal = RawTerminal()) {
        self.terminal = terminal
    }

    /// Blocks until the user quits; returns the exit status.
    public func run(_ controller: ChatController) throws(TerminalError) -> Int32 {
        let pipe = try SignalPipe()
        signal(SIGPIPE, SIG_IGN)
        try pipe.install([SIGWINCH] + Self.exitSignals)
        defer { pipe.uninstall([SIGWINCH] + Self.exitSignals) }
        try terminal.enter()
        defer { terminal.restore() }

        let (inputs, inputSink) = AsyncStream<InputEvent>.makeStream()
        let terminal = self.terminal
        let writer = Task {
            var frames = FrameWriter()
            for await frame in controller.frames() { terminal.writeAll(frames.render(frame)) }
            pipe.wake()
        }
        let reader = Task {
            for await event in inputs {
                switch event {
                case .key(let key): await controller.handle(key)
                case .resize(let size): await controller.resize(size)
                }
            }
        }
        Task {
            await controller.resize(terminal.size())
            await controller.start()
        }
        pollUntilDone(pipe: pipe, controller: controller) { inputSink.yield($0) }
        inputSink.finish()
        reader.cancel()
        writer.cancel()
        return 0
    }

    /// The loop of the calling thread: keys, signals and the writer's "done" byte.
    private func pollUntilDone(pipe: SignalPipe, controller: ChatController, send: (InputEvent) -> Void) {
        var decoder = InputDecoder()
        var quitDeadline: Int64?
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Becomes -1 (ignored by poll) once the keyboard is gone.
        var inputFD: Int32 = 0
        func requestQuit() {
            guard quitDeadline == nil else { return }
            quitDeadline = Self.nowMilliseconds() + quitGraceMilliseconds
            Task { await controller.quit() }
        }
        func deliver(_ keys: [TerminalKey]) {
            for key in keys {
                // Ctrl-C jumps the queue: a key waiting on the network must not delay leaving.
                if key == .control("c") { requestQuit() } else { send(.key(key)) }
            }
        }
        while true {
            if let deadline = quitDeadline, Self.nowMilliseconds() >= deadline { return }
            var fds = [pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0), pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)]
            let timeout: Int32 = decoder.hasPendingEscape ? escapeTimeoutMilliseconds : (quitDeadline != nil ? 100 : -1)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                deliver(decoder.flush())
                continue
            }
            if fds[1].revents != 0 {
                for byte in pipe.drain() {
                    switch Int32(byte) {
                    case Int32(SignalPipe.wakeByte): return
                    case SIGWINCH: send(.resize(terminal.size()))
                    default: requestQuit()
                    }
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let n = read(0, &buffer, buffer.count)
                if n > 0 {
                    deliver(decoder.receive(buffer.prefix(n)))
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    inputFD = -1
                    requestQuit()
                }
            } else if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                inputFD = -1
                requestQuit()
            }
        }
    }

    static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
