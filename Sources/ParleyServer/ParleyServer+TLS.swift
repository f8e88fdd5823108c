import ParleyNet

extension ParleyServer {
    /// The TLS identity `options` name, loaded now so a missing or mismatched file stops
    /// the start with a clear message; nil when TLS is off.
    static func loadTLS(_ options: ServeOptions) throws(ServerStartError) -> TLSServerIdentity? {
        guard let certificate = options.tlsCertificateFile, let key = options.tlsKeyFile else { return nil }
        do {
            return try TLSServerIdentity(certificateFile: certificate, keyFile: key)
        } catch {
            throw ServerStartError(code: "tls", message: "cannot load the TLS certificate and key: \(error)")
        }
    }

    /// Reads the certificate and key files again (SIGHUP): new handshakes use them, open
    /// connections keep theirs. A file that fails to load leaves the old certificate serving.
    public func reloadTLS() {
        guard let identity = tlsIdentity else {
            logger.info("SIGHUP: nothing to reload (TLS is not configured)")
            return
        }
        do {
            let context = try identity.reload()
            logger.info(
                "TLS certificate reloaded",
                [
                    ("cert", identity.certificateFile),
                    ("subject", context.certificateSubject ?? "?"),
                    ("serial", context.certificateSerial ?? "?")
                ])
        } catch {
            logger.error(
                "TLS reload failed; the previous certificate stays in service",
                [("cert", identity.certificateFile), ("error", "\(error)")])
        }
    }
}

extension ParleyServerMain {
    /// `options` with the config file's `"tls"` member applied (flags and environment win).
    static func optionsWithConfigFileTLS(_ options: ServeOptions) -> Result<ServeOptions, ServerStartError> {
        guard let path = options.configPath, let bytes = readFile(path) else { return .success(options) }
        do {
            return .success(try options.applyingConfigFileTLS(bytes))
        } catch {
            return .failure(ServerStartError(code: error.code, message: "config file \(path): \(error.message)"))
        }
    }
}
