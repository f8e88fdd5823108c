import ParleyChannels
import ParleyNet
import ParleyWire

/// Carries a `PusherSession` over a ParleyNet `WebSocket`: frames in, frames out, heartbeats on a timer.
///
/// Everything here runs on the socket's loop.
final class WebSocketPusherTransport: PusherTransport, @unchecked Sendable {
    // @unchecked: confined to the socket's loop, like the socket it wraps.
    let socket: WebSocket
    private var session: PusherSession?
    private var timer: TimerHandle?

    init(socket: WebSocket) { self.socket = socket }

    func sendText(_ frame: [UInt8]) { socket.send(utf8Text: frame) }

    func send(_ frame: ChannelFrame) { socket.send(shared: frame.websocketFrame) }

    func close(code: Int, reason: String) {
        socket.close(code: WebSocketCloseCode(rawValue: UInt16(clamping: code)), reason: reason)
    }

    var queuedBytes: Int { socket.outboundBytes }

    func discardQueued() { socket.discardQueuedOutput() }

    func attach(_ session: PusherSession, loop: EventLoop) {
        self.session = session
        socket.userData = self
        // Weak, not unowned: the socket owns the transport through `userData` and drops it
        // on close, so a callback must find out rather than assume it is still there.
        socket.onMessage = { [weak self] _, message in
            guard let session = self?.session else { return }
            let now = ServerClock.monotonicMilliseconds()
            switch message {
            case .text(let text): session.receiveText(Array(text.utf8), now: now)
            case .binary: session.receiveBinary(now: now)
            }
        }
        socket.onPing = { [weak self] _, _ in self?.session?.noteActivity(now: ServerClock.monotonicMilliseconds()) }
        socket.onPong = { [weak self] _, _ in self?.session?.noteActivity(now: ServerClock.monotonicMilliseconds()) }
        socket.onClose = { [weak self] _, _, _ in
            guard let self else { return }
            self.timer?.cancel()
            self.timer = nil
            self.session?.transportClosed()
            self.session = nil
            self.socket.userData = nil
        }
        scheduleTick(loop: loop)
    }

    private func scheduleTick(loop: EventLoop) {
        guard let session else { return }
        let now = ServerClock.monotonicMilliseconds()
        let deadline = session.tick(now: now)
        guard !session.isFinished else { return }
        let delay = max(10, deadline - now)
        timer = loop.schedule(after: .milliseconds(delay)) { [weak self] in self?.scheduleTick(loop: loop) }
    }
}
