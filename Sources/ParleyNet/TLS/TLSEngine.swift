import COpenSSL
import ParleyWire

/// TLS over memory, without I/O: ciphertext from the peer goes in (``receive(_:)``),
/// plaintext comes out (``read(into:)``), plaintext to send goes in (``send(_:)``) and the
/// ciphertext to put on the wire comes out (``takeOutput()``). Whoever owns the socket moves
/// the bytes; the engine never blocks and never sees a file descriptor, so two engines can
/// talk to each other in a test by handing their outputs across.
///
/// It is the one owner of its OpenSSL session; use it from one thread at a time.
public final class TLSEngine {
    /// Which end of the handshake this engine plays.
    public enum Role: Sendable {
        /// Waits for a ClientHello.
        case server
        /// Sends the ClientHello; `serverName` is sent as SNI and checked against the
        /// server's certificate when given (an IP address literal is only checked, not sent).
        case client(serverName: String?)
    }

    /// What one ``read(into:)`` produced.
    public enum ReadResult: Equatable, Sendable {
        /// This many plaintext bytes were written to the front of the buffer.
        case plaintext(Int)
        /// Nothing more can be decrypted until more ciphertext arrives (the handshake may
        /// have moved on and left output to send).
        case needsInput
        /// The peer sent close_notify: its side of the stream ended cleanly.
        case closedByPeer
    }

    private let session: TLSSession
    private let isServer: Bool
    /// Whether the handshake has finished; plaintext can flow only after it.
    public private(set) var isHandshakeComplete = false
    /// Whether a fatal error happened; the engine is unusable afterwards (its last output
    /// may hold an alert for the peer).
    public private(set) var hasFailed = false
    /// Whether close_notify has been produced.
    public private(set) var isClosing = false

    /// Creates an engine for one connection with `context`'s certificate and settings.
    public init(context: TLSContext, role: Role) throws(NetError) {
        let session = try TLSSession(context: context)
        switch role {
        case .server:
            SSL_set_accept_state(session.handle)
        case .client(let serverName):
            SSL_set_connect_state(session.handle)
            if let serverName, SocketAddress(host: serverName, port: 0) != nil {
                // An address literal: no SNI (RFC 6066 allows only host names there); the
                // certificate must name the address itself (an IP subjectAltName).
                guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(session.handle), serverName) == 1 else {
                    throw NetError.tls(.tlsConfiguration, "invalid server address \(serverName)")
                }
            } else if let serverName {
                guard copenssl_set_server_name(session.handle, serverName) == 1,
                    SSL_set1_host(session.handle, serverName) == 1
                else {
                    throw NetError.tls(.tlsConfiguration, "invalid server name \(serverName)")
                }
            }
        }
        self.session = session
        if case .server = role { isServer = true } else { isServer = false }
    }

    // MARK: Input

    /// Takes ciphertext received from the peer (copied; the buffer may be reused at once).
    public func receive(_ ciphertext: UnsafeRawBufferPointer) throws(NetError) {
        guard let base = ciphertext.baseAddress, !ciphertext.isEmpty else { return }
        var offset = 0
        while offset < ciphertext.count {
            let piece = Int32(clamping: ciphertext.count - offset)
            let written = BIO_write(session.input, base + offset, piece)
            guard written > 0 else { throw NetError.tls(.io, "cannot buffer received TLS bytes") }
            offset += Int(written)
        }
    }

    /// Advances the handshake and decrypts what it can into `buffer`. Call again until it
    /// answers ``ReadResult/needsInput``. Throws ``NetError/Code/tlsHandshakeFailed`` or
    /// ``NetError/Code/tlsProtocol`` on a fatal error (then ``hasFailed`` is set).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(NetError) -> ReadResult {
        guard !hasFailed else { throw NetError(.tlsProtocol, "TLS session already failed") }
        while true {
            ERR_clear_error()
            let buffered = BIO_ctrl_pending(session.input)
            let count = SSL_read(session.handle, buffer.baseAddress, Int32(clamping: buffer.count))
            noteHandshake()
            if count > 0 { return .plaintext(Int(count)) }
            switch SSL_get_error(session.handle, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                // SSL_read can stop after a record that carried no application data (the
                // client's Finished, a session ticket) with the next record, often the first
                // request, already received: it would then wait for a socket read that never
                // comes. Go on while records remain and the last call consumed some.
                let remaining = BIO_ctrl_pending(session.input)
                if remaining > 0 && remaining < buffered { continue }
                return .needsInput
            case SSL_ERROR_ZERO_RETURN:
                return .closedByPeer
            default:
                throw fail("TLS read")
            }
        }
    }

    /// Starts a client's handshake (the ClientHello lands in the output). Servers wait for
    /// the peer instead, so this does nothing for them.
    public func startHandshake() throws(NetError) {
        guard !isServer, !isHandshakeComplete, !hasFailed else { return }
        ERR_clear_error()
        let result = SSL_do_handshake(session.handle)
        noteHandshake()
        guard result != 1 else { return }
        let error = SSL_get_error(session.handle, result)
        guard error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE else { throw fail("TLS handshake") }
    }

    // MARK: Output

    /// Encrypts `plaintext` into the output. Only after the handshake (callers keep their
    /// plaintext until ``isHandshakeComplete``).
    public func send(_ plaintext: UnsafeRawBufferPointer) throws(NetError) {
        guard let base = plaintext.baseAddress, !plaintext.isEmpty else { return }
        guard isHandshakeComplete, !hasFailed, !isClosing else {
            throw NetError(.closed, "TLS session cannot send (handshake incomplete, failed or closing)")
        }
        var offset = 0
        while offset < plaintext.count {
            ERR_clear_error()
            let piece = Int32(clamping: plaintext.count - offset)
            let written = SSL_write(session.handle, base + offset, piece)
            guard written > 0 else { throw fail("TLS write") }
            offset += Int(written)
        }
    }

    /// Produces close_notify (once, and only on an established, healthy session).
    public func close() {
        guard isHandshakeComplete, !hasFailed, !isClosing else { return }
        isClosing = true
        ERR_clear_error()
        _ = SSL_shutdown(session.handle)
        ERR_clear_error()
    }

    /// Ciphertext waiting to be sent, in bytes.
    public var pendingOutputCount: Int { Int(BIO_ctrl_pending(session.output)) }

    /// Takes all ciphertext waiting to be sent, or nil when there is none.
    public func takeOutput() -> SharedBytes? {
        let count = pendingOutputCount
        guard count > 0 else { return nil }
        var taken: Int32 = 0
        let chunk = SharedBytes(unsafeUninitializedCount: count) { target in
            taken = BIO_read(session.output, target.baseAddress, Int32(clamping: count))
        }
        // A memory BIO hands over exactly what it reported pending.
        precondition(Int(taken) == count, "memory BIO returned \(taken) of \(count) bytes")
        return chunk
    }

    // MARK: Facts about the session

    /// The ALPN protocol agreed in the handshake, if any.
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>? = nil
        var length: UInt32 = 0
        SSL_get0_alpn_selected(session.handle, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The TLS version agreed (`TLSv1.3`...), once the handshake is complete.
    public var protocolVersion: String? {
        guard isHandshakeComplete, let name = SSL_get_version(session.handle) else { return nil }
        return String(cString: name)
    }

    /// The subject line of the peer's certificate (a client sees the server's), if any.
    public var peerCertificateSubject: String? {
        guard let certificate = SSL_get0_peer_certificate(session.handle) else { return nil }
        return TLSContext.subjectLine(of: certificate)
    }

    /// The serial number (hex) of the peer's certificate, if any.
    public var peerCertificateSerial: String? {
        guard let certificate = SSL_get0_peer_certificate(session.handle) else { return nil }
        return TLSContext.serialHex(of: certificate)
    }

    // MARK: Internals

    private func noteHandshake() {
        if !isHandshakeComplete && SSL_is_init_finished(session.handle) == 1 { isHandshakeComplete = true }
    }

    private func fail(_ what: String) -> NetError {
        hasFailed = true
        let code: NetError.Code = isHandshakeComplete ? .tlsProtocol : .tlsHandshakeFailed
        return NetError.tls(code, isHandshakeComplete ? what : "\(what) during the handshake")
    }
}
