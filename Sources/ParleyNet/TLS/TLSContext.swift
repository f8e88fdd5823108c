import COpenSSL
import ParleyPlatform

/// An OpenSSL `SSL_CTX`: the certificate, key and settings TLS sessions are made from.
///
/// Owns the handle and frees it on release; every ``TLSEngine`` made from it holds a
/// reference (and OpenSSL its own), so a context replaced by a reload lives on exactly as
/// long as the connections that use it. Both roles accept TLS 1.2 and newer only.
public final class TLSContext: @unchecked Sendable {
    // @unchecked: configured completely in the initializers, only read afterwards; OpenSSL
    // locks what it changes inside a context (reference count, session cache).

    let handle: OpaquePointer
    /// The application protocol a server picks from the client's ALPN list.
    static let alpnProtocol = Array("http/1.1".utf8)

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        SSL_CTX_free(handle)
    }

    /// A server context from PEM files: `certificateFile` holds the certificate, then any
    /// intermediates; `keyFile` its private key. Fails with ``NetError/Code/tlsConfiguration``
    /// when a file is missing or unreadable, not PEM, or the key does not match.
    public static func server(certificateFile: String, keyFile: String) throws(NetError) -> TLSContext {
        try requireReadable(certificateFile, "certificate")
        try requireReadable(keyFile, "private key")
        let context = try make(TLS_server_method())
        guard SSL_CTX_use_certificate_chain_file(context.handle, certificateFile) == 1 else {
            throw NetError.tls(.tlsConfiguration, "\(certificateFile) is not a PEM certificate")
        }
        let mismatch = "the private key in \(keyFile) does not belong to the certificate in \(certificateFile)"
        guard SSL_CTX_use_PrivateKey_file(context.handle, keyFile, SSL_FILETYPE_PEM) == 1 else {
            // OpenSSL compares the key with the certificate while loading it.
            let keyMismatch = ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH
            throw NetError.tls(.tlsConfiguration, keyMismatch ? mismatch : "\(keyFile) is not a PEM private key")
        }
        guard SSL_CTX_check_private_key(context.handle) == 1 else { throw NetError.tls(.tlsConfiguration, mismatch) }
        SSL_CTX_set_alpn_select_cb(
            context.handle,
            { _, out, outLength, offered, offeredLength, _ in
                TLSContext.selectALPN(offered: offered, count: Int(offeredLength), out: out, outLength: outLength)
            }, nil)
        return context
    }

    /// A client context that verifies the server against the CA certificates in `caFile`
    /// (PEM), or trusts no one when nil (the handshake then fails on verification), and
    /// offers `http/1.1` by ALPN.
    public static func client(trusting caFile: String?) throws(NetError) -> TLSContext {
        let context = try make(TLS_client_method())
        if let caFile {
            try requireReadable(caFile, "CA certificate")
            guard SSL_CTX_load_verify_locations(context.handle, caFile, nil) == 1 else {
                throw NetError.tls(.tlsConfiguration, "\(caFile) holds no PEM CA certificate")
            }
        }
        SSL_CTX_set_verify(context.handle, SSL_VERIFY_PEER, nil)
        let wire = [UInt8(alpnProtocol.count)] + alpnProtocol
        guard SSL_CTX_set_alpn_protos(context.handle, wire, UInt32(wire.count)) == 0 else {
            throw NetError.tls(.tlsConfiguration, "cannot set ALPN")
        }
        return context
    }

    /// The client context that trusts the system's CA certificates (OpenSSL's default
    /// locations, on Debian /etc/ssl/certs), made once and shared: what `wss://` and
    /// `https://` clients use unless given a context of their own.
    public static func systemClient() throws(NetError) -> TLSContext {
        try systemClientContext.get()
    }

    private static let systemClientContext: Result<TLSContext, NetError> = {
        do throws(NetError) {
            let context = try client(trusting: nil)
            guard SSL_CTX_set_default_verify_paths(context.handle) == 1 else {
                return .failure(NetError.tls(.tlsConfiguration, "cannot load the system's CA certificates"))
            }
            return .success(context)
        } catch {
            return .failure(error)
        }
    }()

    /// The subject of this context's own certificate, one line (`/CN=...`), if it has one.
    public var certificateSubject: String? {
        guard let certificate = SSL_CTX_get0_certificate(handle) else { return nil }
        return TLSContext.subjectLine(of: certificate)
    }

    /// The serial number of this context's own certificate in hex, if it has one.
    public var certificateSerial: String? {
        guard let certificate = SSL_CTX_get0_certificate(handle) else { return nil }
        return TLSContext.serialHex(of: certificate)
    }

    // MARK: Helpers

    private static func make(_ method: OpaquePointer?) throws(NetError) -> TLSContext {
        ERR_clear_error()
        guard let handle = SSL_CTX_new(method) else { throw NetError.tls(.tlsConfiguration, "SSL_CTX_new failed") }
        let context = TLSContext(handle: handle)
        guard copenssl_ctx_require_tls12(handle) == 1 else {
            throw NetError.tls(.tlsConfiguration, "cannot require TLS 1.2")
        }
        copenssl_ctx_harden(handle)
        return context
    }

    /// Says which file is wrong before OpenSSL's terser reasons would.
    private static func requireReadable(_ path: String, _ what: String) throws(NetError) {
        guard let file = fopen(path, "rb") else {
            let error = errno
            throw NetError(.tlsConfiguration, errno: error, "cannot read the TLS \(what) file \(path)")
        }
        fclose(file)
    }

    /// The server side of ALPN: `http/1.1` if the client offers it; otherwise no protocol is
    /// acknowledged and the handshake goes on (a client that offered only `h2` learns that
    /// nothing was agreed, rather than losing the connection).
    static func selectALPN(
        offered: UnsafePointer<UInt8>?, count: Int,
        out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        outLength: UnsafeMutablePointer<UInt8>?
    ) -> Int32 {
        guard let offered, let out, let outLength else { return SSL_TLSEXT_ERR_NOACK }
        var index = 0
        while index < count {
            let length = Int(offered[index])
            let start = index + 1
            guard start + length <= count else { break }
            if length == alpnProtocol.count && (0..<length).allSatisfy({ offered[start + $0] == alpnProtocol[$0] }) {
                // Points into the client's list, which OpenSSL keeps for the handshake.
                out.pointee = offered + start
                outLength.pointee = UInt8(length)
                return SSL_TLSEXT_ERR_OK
            }
            index = start + length
        }
        return SSL_TLSEXT_ERR_NOACK
    }

    static func subjectLine(of certificate: OpaquePointer) -> String? {
        guard let name = X509_get_subject_name(certificate) else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        guard X509_NAME_oneline(name, &buffer, Int32(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func serialHex(of certificate: OpaquePointer) -> String? {
        guard let hex = copenssl_serial_hex(certificate) else { return nil }
        defer { copenssl_free(hex) }
        return String(cString: hex)
    }
}
