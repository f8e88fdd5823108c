import ParleyKit

/// The peer's command line.
struct PeerOptions {
    var serverURL = ""
    var appKey = "dev-key"
    var token = ""
    var storePath: String?
    var initialDelayMilliseconds = 100
    var maximumDelayMilliseconds = 1000
    /// PEM CA file trusted for https/wss instead of the system's.
    var caFile: String?
    /// `socket` (ParleyNet, the Linux default) or `urlsession` (Foundation) for HTTP.
    var httpTransport = "socket"

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { PeerOutput.fail("\(flag) needs a value") }
            switch flag {
            case "--server": serverURL = value
            case "--app-key": appKey = value
            case "--token": token = value
            case "--store": storePath = value
            case "--initial-delay-ms": initialDelayMilliseconds = Self.number(value, flag)
            case "--max-delay-ms": maximumDelayMilliseconds = Self.number(value, flag)
            case "--ca": caFile = value
            case "--http": httpTransport = value
            default: PeerOutput.fail("unknown flag \(flag)")
            }
        }
        if serverURL.isEmpty || token.isEmpty { PeerOutput.fail("usage: ParleyKitPeer --server URL --token TOKEN [--store PATH] ...") }
    }

    /// The client configuration: short backoff so a restarted server is found again quickly.
    var configuration: ParleyConfiguration {
        ParleyConfiguration(
            serverURL: serverURL, appKey: appKey, storePath: storePath,
            reconnect: ReconnectPolicy(
                initialDelay: .milliseconds(initialDelayMilliseconds),
                maximumDelay: .milliseconds(maximumDelayMilliseconds)))
    }

    private static func number(_ text: String, _ flag: String) -> Int {
        guard let value = Int(text), value >= 0 else { PeerOutput.fail("\(flag) needs a number, got \(text)") }
        return value
    }
}
