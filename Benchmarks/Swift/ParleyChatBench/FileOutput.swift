import Glibc

/// Process-level odds and ends: unbuffered error output and the descriptor limit.
enum FileOutput {
    /// Writes one line to standard output at once (unbuffered: the scripts tee it as it comes).
    static func standardOutput(_ text: String) { writeLine(text, to: 1) }

    /// Writes one line to standard error at once.
    static func standardError(_ text: String) { writeLine(text, to: 2) }

    private static func writeLine(_ text: String, to descriptor: Int32) {
        let line = text + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    /// Raises the soft open-file limit to the hard limit (1,000+ sockets need it).
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
