import ParleyNet

extension ServerStartError {
    /// The listener could not bind; a port in use gets an answer that says what to do.
    static func listen(_ error: NetError, options: ServeOptions) -> ServerStartError {
        let address = "\(options.host):\(options.port)"
        guard error.code == .addressInUse else {
            return ServerStartError(code: "listen", message: "could not listen on \(address): \(error)")
        }
        return ServerStartError(
            code: "address_in_use",
            message: """
                \(address) is already in use (is another parley serve running?). Stop it or choose another \
                --port; to replace a running parley without a gap, start the new one with --reuse-port, then \
                stop the old one with SIGTERM
                """)
    }
}
