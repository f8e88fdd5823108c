import ParleyNet

/// Command-line settings of the broadcast benchmark server.
struct BenchOptions {
    /// TCP port on 127.0.0.1.
    var port = 9001
    /// Event loop threads; by default one per core this process may run on.
    var threads = EventLoopGroup.coreCount
    /// Readiness backend of every loop.
    var backend = SelectorBackend.platformDefault

    static let usage = "usage: ParleyBroadcastBench [--port N] [--threads N] [--backend epoll|poll]"

    /// Parses `arguments` (without the program name); returns nil on anything unknown or malformed.
    init?(_ arguments: some Sequence<String>) {
        var rest = arguments.makeIterator()
        while let flag = rest.next() {
            guard let value = rest.next() else { return nil }
            switch flag {
            case "--port":
                guard let port = Int(value), (1...65535).contains(port) else { return nil }
                self.port = port
            case "--threads":
                guard let threads = Int(value), threads > 0 else { return nil }
                self.threads = threads
            case "--backend":
                guard let backend = SelectorBackend(rawValue: value) else { return nil }
                self.backend = backend
            default:
                return nil
            }
        }
    }
}
