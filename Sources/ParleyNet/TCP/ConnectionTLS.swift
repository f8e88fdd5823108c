import ParleyWire

/// What a ``Connection`` carries while TLS runs over its socket: the engine, the ciphertext
/// waiting for the socket, and the handshake deadline. Loop-confined like its connection.
///
/// The connection's own outbound queue then holds plaintext (shared frames retained, not
/// copied); it is encrypted only when the socket can take more, so a slow reader's backlog
/// stays plaintext that can still be discarded without breaking the TLS record stream.
final class ConnectionTLS {
    let engine: TLSEngine
    /// Ciphertext in wire order; a chunk once started must finish.
    var ciphertext = OutboundQueue()
    var handshakeTimer: TimerHandle?
    /// Why the connection is going down, reported to the handler when it closes.
    var failure: NetError?

    init(engine: TLSEngine) {
        self.engine = engine
    }

    /// Moves whatever the engine produced (handshake messages, records, alerts) into the
    /// ciphertext queue; returns whether there was any.
    @discardableResult
    func collectOutput() -> Bool {
        guard let chunk = engine.takeOutput() else { return false }
        ciphertext.append(chunk)
        return true
    }
}
