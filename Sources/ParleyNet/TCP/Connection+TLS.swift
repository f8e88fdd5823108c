import ParleyWire

/// TLS on a ``Connection``: the socket carries ciphertext, the handler sees plaintext, and
/// the layers above (HTTP, WebSocket) write plaintext through the same ``Connection/write(_:)-(SharedBytes)``
/// as on a plain socket. A plain connection pays one nil check per read, write and flush.
extension Connection {
    /// Runs TLS over this connection from now on, with `context`'s certificate and settings.
    /// The handshake must finish within `handshakeTimeout`, else the connection is aborted
    /// with ``NetError/Code/timedOut``. Loop thread, before any byte has moved.
    public func startTLS(context: TLSContext, role: TLSEngine.Role, handshakeTimeout: Duration) throws(NetError) {
        precondition(tls == nil, "TLS already started")
        let engine = try TLSEngine(context: context, role: role)
        try engine.startHandshake()
        let tls = ConnectionTLS(engine: engine)
        self.tls = tls
        tls.handshakeTimer = loop.scheduleLocal(after: handshakeTimeout) { [self] in
            guard let tls = self.tls else { return }
            tls.handshakeTimer = nil
            guard !tls.engine.isHandshakeComplete else { return }
            abort(NetError(.timedOut, "TLS handshake not finished within \(handshakeTimeout)"))
        }
        if tls.collectOutput() { requestFlush() }
    }

    /// Whether TLS runs over this connection. Loop.
    public var isTLS: Bool { tls != nil }

    /// The ALPN protocol agreed in the TLS handshake, if any. Loop.
    public var tlsNegotiatedProtocol: String? { tls?.engine.negotiatedProtocol }

    // MARK: Writing

    /// A write on a TLS connection: the plaintext joins the queue (shared chunks are only
    /// retained) and is encrypted at the flush, once per loop pass for all that piled up.
    func queuePlaintext(_ count: Int, _ chunk: () -> SharedBytes) -> Bool {
        guard admits(count) else { return false }
        outbound.append(chunk())
        requestFlush()
        return true
    }

    /// The TLS flush: ciphertext already made goes out first; plaintext is encrypted only
    /// after it has gone, so what waits for a slow reader stays discardable plaintext.
    /// Returns false when not everything could go (write-blocked, or the connection failed).
    func flushEncrypted(_ tls: ConnectionTLS) -> Bool {
        while true {
            if tls.ciphertext.isEmpty {
                guard encryptQueued(tls) else { return false }
                if tls.ciphertext.isEmpty { return true }
            }
            switch send(&tls.ciphertext) {
            case .sent: continue
            case .blocked:
                setWriteBlocked(true)
                return false
            case .failed(let error):
                abort(error)
                return false
            }
        }
    }

    /// Encrypts the queued plaintext (once the handshake allows); false if the engine failed.
    private func encryptQueued(_ tls: ConnectionTLS) -> Bool {
        guard tls.engine.isHandshakeComplete, !tls.engine.hasFailed, !tls.engine.isClosing, !outbound.isEmpty else {
            return true
        }
        let iovecs = loop.iovecs
        let count = outbound.gather(into: iovecs)
        var encrypted = 0
        do {
            for i in 0..<count {
                try tls.engine.send(UnsafeRawBufferPointer(start: iovecs[i].iov_base, count: iovecs[i].iov_len))
                encrypted += iovecs[i].iov_len
            }
        } catch {
            tls.failure = error
            abort(error)
            return false
        }
        outbound.consume(encrypted)
        tls.collectOutput()
        return true
    }

    /// Queues close_notify and flushes it; false when there is none to send (handshake not
    /// finished, failed, or already sent), so the caller goes on closing.
    func sendCloseNotify(_ tls: ConnectionTLS) -> Bool {
        guard tls.engine.isHandshakeComplete, !tls.engine.hasFailed, !tls.engine.isClosing else { return false }
        tls.engine.close()
        tls.collectOutput()
        flushNow()
        return true
    }

    // MARK: Reading

    /// Feeds ciphertext to the engine and hands the handler whatever plaintext it yields.
    /// The plaintext is decrypted into the loop's read buffer, free again once the engine
    /// has copied the ciphertext in.
    func receiveEncrypted(_ tls: ConnectionTLS, _ ciphertext: UnsafeRawBufferPointer) {
        let wasComplete = tls.engine.isHandshakeComplete
        let buffer = loop.readBuffer
        do {
            try tls.engine.receive(ciphertext)
            reading: while state == .open {
                switch try tls.engine.read(into: buffer) {
                case .plaintext(let count):
                    handler?.connection(self, didRead: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count))
                case .needsInput:
                    break reading
                case .closedByPeer:
                    if tls.collectOutput() { requestFlush() }
                    peerClosedSending()
                    return
                }
            }
        } catch {
            failTLS(tls, error)
            return
        }
        let completedNow = !wasComplete && tls.engine.isHandshakeComplete
        if completedNow {
            tls.handshakeTimer?.cancel()
            tls.handshakeTimer = nil
        }
        if tls.collectOutput() || (completedNow && !outbound.isEmpty) { requestFlush() }
    }

    /// A fatal TLS error: the plaintext will never go, the alert OpenSSL wrote should; the
    /// connection closes gracefully and the handler learns `error` when it has.
    private func failTLS(_ tls: ConnectionTLS, _ error: NetError) {
        tls.failure = error
        tls.handshakeTimer?.cancel()
        tls.handshakeTimer = nil
        outbound.removeAll()
        tls.collectOutput()
        loop.logger.log(.debug, "TLS connection failed: \(error)")
        close()
    }
}
