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
        // The socket holds the transport until it reports the close, then lets go.
        socket.delegate = self
        scheduleTick()
    }

    /// Runs the session's clock and arms the timer for its next deadline. The timer holds the
    /// transport strongly (a weak capture costs every connection a side table); the close
    /// cancels it, which releases it at once.
    private func scheduleTick() {
        guard let session else { return }
        let now = ServerClock.monotonicMilliseconds()
        let deadline = session.tick(now: now)
        guard !session.isFinished else { return }
        let delay = max(10, deadline - now)
        timer = socket.loop.schedule(after: .milliseconds(delay)) { [self] in scheduleTick() }
    }
}

extension WebSocketPusherTransport: WebSocketDelegate {
    func webSocket(_ socket: WebSocket, didReceive message: WebSocketMessage) {
        guard let session else { return }
        let now = ServerClock.monotonicMilliseconds()
        switch message {
        case .text(let text): session.receiveText(Array(text.utf8), now: now)
        case .binary: session.receiveBinary(now: now)
        }
    }

    func webSocket(_ socket: WebSocket, didReceivePing payload: [UInt8]) {
        session?.noteActivity(now: ServerClock.monotonicMilliseconds())
    }

    func webSocket(_ socket: WebSocket, didReceivePong payload: [UInt8]) {
        session?.noteActivity(now: ServerClock.monotonicMilliseconds())
    }

    func webSocket(_ socket: WebSocket, didCloseWith code: WebSocketCloseCode, reason: String) {
        timer?.cancel()
        timer = nil
        session?.transportClosed()
        session = nil
    }
}
