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
        socket.onMessage = { [unowned self] _, message in
            let now = ServerClock.monotonicMilliseconds()
            switch message {
            case .text(let text): self.session?.receiveText(Array(text.utf8), now: now)
            case .binary: self.session?.receiveBinary(now: now)
            }
        }
        socket.onPing = { [unowned self] _, _ in self.session?.noteActivity(now: ServerClock.monotonicMilliseconds()) }
        socket.onPong = { [unowned self] _, _ in self.session?.noteActivity(now: ServerClock.monotonicMilliseconds()) }
        socket.onClose = { [unowned self] _, _, _ in
            self.timer?.cancel()
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
