import ParleyWire

extension ServeOptions {
    /// Whether HTTPS/WSS is configured.
    public var servesTLS: Bool { tlsCertificateFile != nil }

    /// A certificate needs its key and a key its certificate.
    func validateTLS() throws(ServeOptionsError) {
        switch (tlsCertificateFile, tlsKeyFile) {
        case (nil, nil), (.some, .some): return
        case (.some, nil):
            throw ServeOptionsError(code: "tls_incomplete", message: "--tls-cert needs --tls-key (the certificate's private key)")
        case (nil, .some):
            throw ServeOptionsError(code: "tls_incomplete", message: "--tls-key needs --tls-cert (the certificate it belongs to)")
        }
    }

    /// Takes `"tls": {"cert_file": ..., "key_file": ...}` from the JSON config file unless
    /// flags or the environment already named the files (they win, as everywhere else).
    public func applyingConfigFileTLS(_ bytes: [UInt8]) throws(ServeOptionsError) -> ServeOptions {
        guard tlsCertificateFile == nil, tlsKeyFile == nil,
            let root = try? JSONParser.parse(bytes), let tls = root.objectValue?["tls"], tls != .null
        else { return self }
        guard let object = tls.objectValue else {
            throw ServeOptionsError(code: "invalid_value", message: "config $.tls must be an object with cert_file and key_file")
        }
        var options = self
        for (key, path) in [("cert_file", \ServeOptions.tlsCertificateFile), ("key_file", \ServeOptions.tlsKeyFile)] {
            guard let value = object[key], value != .null else { continue }
            guard let text = value.stringValue, !text.isEmpty else {
                throw ServeOptionsError(code: "invalid_value", message: "config $.tls.\(key) must be a file path")
            }
            options[keyPath: path] = text
        }
        do {
            try options.validateTLS()
        } catch {
            throw ServeOptionsError(code: error.code, message: "config $.tls needs both cert_file and key_file")
        }
        return options
    }
}
