import Foundation
import Glibc

/// A real `redis-server` on a free 127.0.0.1 port in a temporary directory, with no
/// persistence, started and stopped by the test that owns it.
final class RedisTestServer: @unchecked Sendable {
    // @unchecked: used from one test at a time; `process` is replaced only by start/stop.
    /// The server binary: PARLEY_TEST_REDIS_SERVER if set (a wrong path checks that a missing
    /// server fails a no-skip run), else Debian's or a local install.
    static let executable: String? = {
        if let given = ProcessInfo.processInfo.environment["PARLEY_TEST_REDIS_SERVER"] {
            return FileManager.default.isExecutableFile(atPath: given) ? given : nil
        }
        return ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether this run must run every test (scripts/test.sh sets PARLEY_TEST_NO_SKIPS=1), so a
    /// missing redis-server fails the suite instead of skipping it.
    static var mustRunEverything: Bool { ProcessInfo.processInfo.environment["PARLEY_TEST_NO_SKIPS"] == "1" }

    /// Whether the Redis tests run: redis-server is installed, or a run that must not skip
    /// lets them fail on its absence.
    static var enabled: Bool { executable != nil || mustRunEverything }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let password: String?
    private let directory: URL
    private var process: Process?

    /// Starts a server; `password` sets `--requirepass`.
    init(password: String? = nil) throws {
        guard Self.executable != nil else {
            throw Failure(description: "redis-server is not installed (apt-get install redis-server)")
        }
        self.port = try Self.freePort()
        self.password = password
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The URL a client uses, with `password` (the server's unless given) and `database`.
    func url(password: String? = nil, user: String? = nil, database: Int = 0) -> String {
        let secret = password ?? self.password
        let credentials = secret.map { "\(user ?? ""):\($0)@" } ?? ""
        return "redis://\(credentials)127.0.0.1:\(port)/\(database)"
    }

    /// Starts redis-server on ``port`` and waits until it answers.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable!)
        var arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--logfile", directory.appendingPathComponent("redis.log").path
        ]
        if let password { arguments += ["--requirepass", password] }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        try waitUntilAnswering()
    }

    /// Kills the server at once (SIGKILL, like a crash) and reaps it.
    func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Polls with PING until the server answers (any reply, NOAUTH included); the deadline is a hang guard.
    private func waitUntilAnswering() throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let client = try? RawClient(port: port) {
                client.send("*1\r\n$4\r\nPING\r\n")
                if !client.read(count: 1).isEmpty { return }
            }
            guard process?.isRunning == true else { break }
            usleep(20_000)
        }
        throw Failure(description: "redis-server did not start on port \(port); see \(directory.path)/redis.log")
    }

    /// A port nobody listens on right now (bound to 0 and released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A Python socket server that answers every command with bytes a Redis server never sends.
final class HostileRedisServer: @unchecked Sendable {
    // @unchecked: used from one test at a time.
    enum Mode: String {
        /// Bytes that are not RESP at all.
        case garbage
        /// A bulk-string header claiming a gigabyte, then an endless stream of filler.
        case hugeBulk = "huge"
    }

    let port: Int
    private let process: Process

    init(_ mode: Mode) throws {
        let script = """
            socket, sys = __import__("socket"), __import__("sys")
            server = socket.socket()
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", 0))
            server.listen(8)
            print(server.getsockname()[1], flush=True)
            while True:
                client, _ = server.accept()
                try:
                    client.recv(65536)
                    if sys.argv[1] == "garbage":
                        client.sendall(b"\\x00\\xffnot redis at all\\r\\n")
                        client.recv(65536)
                    else:
                        client.sendall(b"$1073741824\\r\\n")
                        filler = b"x" * 65536
                        for _ in range(16384):
                            client.sendall(filler)
                except OSError:
                    pass
                client.close()
            """
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, mode.rawValue]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw RedisTestServer.Failure(description: "the hostile server did not start")
        }
        self.port = port
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
