// Broadcast benchmark server on ParleyNet, speaking the protocol in Benchmarks/README.md:
// WebSocket on `/`, every text message goes to every open socket (sender included) as one
// unmasked text frame; `GET /healthz` answers 200 with keep-alive.
import Glibc
import ParleyNet

guard let options = BenchOptions(CommandLine.arguments.dropFirst()) else {
    writeLine(BenchOptions.usage, to: 2)
    exit(2)
}
raiseDescriptorLimit()

do {
    let group = try EventLoopGroup(threads: options.threads, backend: options.backend)
    let hub = BroadcastHub(group: group)
    var routes = HTTPRoutes()
    routes.get("/healthz") { _, responder in responder.respond(.text("ok\n")) }
    routes.webSocket("/") { _, socket in hub.adopt(socket) }
    // Benchmark clients stay idle between trials for longer than a production timeout.
    let configuration = HTTPServerConfiguration(
        host: "127.0.0.1", port: options.port, backlog: 4096,
        idleTimeout: .seconds(3600))
    let server = HTTPServer(group: group, configuration: configuration, routes: routes)
    try server.start()
    try ShutdownSignals.install(on: group.loops[0]) { _ in
        server.shutdown(gracePeriod: .seconds(1)) { group.shutdown() }
    }
    writeLine("listening on 127.0.0.1:\(options.port), \(options.threads) loop(s), \(options.backend.rawValue)", to: 1)
    group.join()
} catch {
    writeLine("ParleyBroadcastBench: \(error)", to: 2)
    exit(1)
}

/// Raises the soft open-file limit to the hard limit (10,000+ sockets need it).
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}

/// Writes one line straight to a descriptor (unbuffered: the harness reads logs of killed servers).
func writeLine(_ text: String, to descriptor: Int32) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
}
