/// Settings of the load mode: the workload driven against a running `parley serve --dev`.
struct LoadOptions {
    /// Server address (loopback only).
    var host = "127.0.0.1"
    /// Server port (setup and read probes; the sends too unless `sendPorts` is given).
    var port = 6001
    /// Ports the sender connections are spread over, sender i on `sendPorts[i % count]`, so
    /// several nodes of one cluster share the sends; empty: every sender on `port`.
    var sendPorts: [Int] = []
    /// Concurrent sender connections, one user each.
    var senders = 1_000
    /// Rooms the senders post to (sender i posts to room i mod rooms).
    var rooms = 100
    /// Rooms the room-list user is a member of (the send rooms plus empty-but-one-message rooms).
    var listRooms = 500
    /// Characters of text in each message.
    var textBytes = 64
    /// When above 0: each sender's text is instead a sentence of this many words from the search
    /// benchmark's Zipf vocabulary (so a full-text index has as many words to index as in real chat).
    var textWords = 0
    /// Closed-loop warm-up before the measured closed-loop run, in seconds.
    var warmupSeconds = 2
    /// Length of the closed-loop run (every sender waits for its ack, then sends again); 0 skips it.
    var closedSeconds = 10
    /// Offered rates (messages/s) of the open-loop runs, each after a 1-s warm-up at that rate.
    var rates: [Int] = []
    /// Length of each open-loop run, in seconds.
    var rateSeconds = 10
    /// Timed history requests (latest 50 of a room).
    var historySamples = 2_000
    /// Timed room-list requests (all `listRooms` rooms in one page).
    var roomListSamples = 500
    /// Pause between the sends and the read probes, so the server's background work after
    /// the write phases (checkpoints, autovacuum) has finished: 0 measures reads right away.
    var settleSeconds = 0
    /// Connections used for the untimed setup.
    var setupConnections = 8
    /// The server processes (every node, and Redis), for their CPU time together; empty leaves
    /// server CPU out of the report.
    var serverPIDs: [Int32] = []
    /// A label for the RESULT line.
    var label = "parley"
    /// The app's key and secret (Basic credentials for app-level setup calls).
    var appKey = "dev-key"
    var appSecret = "dev-secret"
    /// The app's id when the server runs a config file instead of `--dev`: setup then creates
    /// users with the app's Basic credentials and mints their tokens itself. Nil: `--dev` routes.
    var configAppID: String?
    /// The whole run is aborted after this many seconds.
    var maxSeconds = 900

    static let usage = """
        usage: ParleyChatBench load [--port 6001] [--senders 1000] [--rooms 100] [--list-rooms 500]
                 [--text-bytes 64 | --text-words N] [--warmup-secs 2] [--closed-secs 10] [--rates 10000,...] [--rate-secs 10]
                 [--history-samples 2000] [--room-list-samples 500] [--settle-secs 0] [--setup-conns 8] [--server-pid PID,...]
                 [--send-ports PORT,...]
                 [--label NAME] [--app-key dev-key] [--app-secret dev-secret] [--config-app ID] [--max-secs 900]
        """

    init(_ arguments: [String]) throws(BenchError) {
        var reader = ArgumentReader(arguments)
        while let flag = reader.nextFlag() {
            switch flag {
            case "--host":
                host = try reader.string(for: flag)
                guard host.hasPrefix("127.") else { throw BenchError("usage", "--host must be a loopback address") }
            case "--port": port = try reader.integer(for: flag, in: 1...65535)
            case "--senders": senders = try reader.integer(for: flag, in: 1...20_000)
            case "--rooms": rooms = try reader.integer(for: flag, in: 1...100_000)
            case "--list-rooms": listRooms = try reader.integer(for: flag, in: 0...1_000)
            case "--text-bytes": textBytes = try reader.integer(for: flag, in: 1...4_000)
            case "--text-words": textWords = try reader.integer(for: flag, in: 0...500)
            case "--warmup-secs": warmupSeconds = try reader.integer(for: flag, in: 0...600)
            case "--closed-secs": closedSeconds = try reader.integer(for: flag, in: 0...3_600)
            case "--rates": rates = try reader.integers(for: flag, in: 1...10_000_000)
            case "--rate-secs": rateSeconds = try reader.integer(for: flag, in: 1...3_600)
            case "--history-samples": historySamples = try reader.integer(for: flag, in: 0...10_000_000)
            case "--room-list-samples": roomListSamples = try reader.integer(for: flag, in: 0...10_000_000)
            case "--settle-secs": settleSeconds = try reader.integer(for: flag, in: 0...600)
            case "--setup-conns": setupConnections = try reader.integer(for: flag, in: 1...256)
            case "--server-pid": serverPIDs = try reader.integers(for: flag, in: 1...Int(Int32.max)).map { Int32($0) }
            case "--send-ports": sendPorts = try reader.integers(for: flag, in: 1...65535)
            case "--label": label = try reader.string(for: flag)
            case "--app-key": appKey = try reader.string(for: flag)
            case "--app-secret": appSecret = try reader.string(for: flag)
            case "--config-app": configAppID = try reader.string(for: flag)
            case "--max-secs": maxSeconds = try reader.integer(for: flag, in: 10...86_400)
            default: throw BenchError("usage", "unknown option '\(flag)'")
            }
        }
        guard listRooms == 0 || listRooms >= min(rooms, 1_000) else {
            throw BenchError("usage", "--list-rooms must be 0 or at least --rooms (the list user is in every send room)")
        }
    }

    /// The port sender `index` connects to.
    func sendPort(ofSender index: Int) -> Int {
        sendPorts.isEmpty ? port : sendPorts[index % sendPorts.count]
    }
}
