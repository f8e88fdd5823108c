import Synchronization

/// The certificate and key a TLS server presents, read from two PEM files and reloadable
/// while serving: after ``reload()`` new handshakes use the new files, while connections
/// already established keep the context they started with.
///
/// Threading: safe from any thread.
public final class TLSServerIdentity: Sendable {
    /// The PEM certificate (chain) file.
    public let certificateFile: String
    /// The PEM private key file.
    public let keyFile: String
    private let current: Mutex<TLSContext>

    /// Loads both files; throws ``NetError/Code/tlsConfiguration`` naming what is wrong.
    public init(certificateFile: String, keyFile: String) throws(NetError) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        current = Mutex(try TLSContext.server(certificateFile: certificateFile, keyFile: keyFile))
    }

    /// The context new handshakes use.
    public var context: TLSContext { current.withLock { $0 } }

    /// Reads the files again and, if they load, makes them the ones new handshakes use.
    /// On failure the previous certificate stays in service and the error is thrown.
    @discardableResult
    public func reload() throws(NetError) -> TLSContext {
        let fresh = try TLSContext.server(certificateFile: certificateFile, keyFile: keyFile)
        current.withLock { $0 = fresh }
        return fresh
    }
}
