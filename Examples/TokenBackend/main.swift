import ParleyNet
import ParleyPlatform

// The example app backend: `TokenBackend --parley http://127.0.0.1:6001`, then point
// `parley chat --token-url http://127.0.0.1:7000/token --name alice` (or HTTPTokenProvider) at it.

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let equals = pair.firstIndex(of: "=") { environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
    entry += 1
}

func fail(_ message: String, status: Int32) -> Never {
    let bytes = Array(("TokenBackend: " + message + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

let options: BackendOptions
do {
    guard let parsed = try BackendOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: environment) else {
        print(BackendOptions.helpText)
        exit(0)
    }
    options = parsed
} catch {
    fail(error.message, status: 2)
}

let service = TokenService(options: options) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec)
}
do {
    let group = try EventLoopGroup(threads: 1)
    let server = HTTPServer(
        group: group,
        configuration: HTTPServerConfiguration(
            host: options.host, port: options.port,
            serverName: "parley-token-backend"),
        routes: service.routes())
    let address = try server.start()
    // One unbuffered write, so a supervising process sees the line at once.
    let line = Array("token backend listening on \(address) for app \(options.appID) at \(options.parleyURL)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    group.join()
} catch {
    fail("\(error)", status: 1)
}
