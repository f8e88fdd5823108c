import COpenSSL

/// One OpenSSL `SSL` wired to two memory BIOs (ciphertext in, ciphertext out); owns all
/// three and frees them on release. No socket is involved: ``TLSEngine`` moves the bytes.
final class TLSSession {
    /// The `SSL*`.
    let handle: OpaquePointer
    /// Ciphertext received from the peer, waiting to be read by OpenSSL.
    let input: OpaquePointer
    /// Ciphertext OpenSSL produced for the peer, waiting to be sent.
    let output: OpaquePointer
    /// Kept so the settings outlive every session made from them.
    let context: TLSContext

    init(context: TLSContext) throws(NetError) {
        ERR_clear_error()
        guard let handle = SSL_new(context.handle) else { throw NetError.tls(.tlsConfiguration, "SSL_new failed") }
        guard let input = BIO_new(BIO_s_mem()) else {
            SSL_free(handle)
            throw NetError.tls(.tlsConfiguration, "BIO_new failed")
        }
        guard let output = BIO_new(BIO_s_mem()) else {
            BIO_free(input)
            SSL_free(handle)
            throw NetError.tls(.tlsConfiguration, "BIO_new failed")
        }
        copenssl_bio_mem_retry_on_empty(input)
        copenssl_bio_mem_retry_on_empty(output)
        // The SSL takes ownership of both BIOs: SSL_free releases them.
        SSL_set_bio(handle, input, output)
        self.handle = handle
        self.input = input
        self.output = output
        self.context = context
    }

    deinit {
        SSL_free(handle)
    }
}
