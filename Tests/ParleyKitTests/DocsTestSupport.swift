import Glibc
import ParleyChannels
import ParleyServer
import ParleyStore
import ParleyText
import ParleyWire
import Synchronization
import Testing

@testable import ParleyKit

/// A real `parley serve --dev` in this process on a free loopback port, over a fresh SQLite
/// database: for loopback tests of document sessions.
final class LoopbackServer: Sendable {
    let server: ParleyServer
    let url: String
    let store: SQLChatStore

    static func start() async throws -> LoopbackServer {
        let directory = "/tmp/parleykit-docs-\(UInt64.random(in: 0...UInt64.max))"
        mkdir(directory, 0o700)
        var options = ServeOptions()
        options.port = 0
        options.dev = true
        options.threads = 1
        options.dataDirectory = directory
        let store = try await SQLChatStore.open(StoreConfiguration(location: .sqlite(inDirectory: directory)))
        let server = try ParleyServer(options: options, channelsConfig: .development, store: store)
        let address = try server.start()
        return LoopbackServer(server: server, url: "http://\(address)", store: store)
    }

    private init(server: ParleyServer, url: String, store: SQLChatStore) {
        self.server = server
        self.url = url
        self.store = store
    }

    func stop() async {
        await withCheckedContinuation { continuation in server.shutdown { continuation.resume() } }
        await store.close()
    }

    /// Creates (or finds) the user called `name` with the development endpoints; returns a token.
    func token(for name: String) async throws -> String {
        let user = try await post("/v1/dev/users", ["name": .string(name)])
        let id = try #require(user["id"]?.stringValue)
        let answer = try await post("/v1/dev/token", ["user_id": .string(id)])
        return try #require(answer["token"]?.stringValue)
    }

    /// A client signed in as `name`, with `documents` as its document transport.
    func client(
        _ name: String, documents: any DocumentTransport = WebSocketDocumentTransport(),
        reconnect: ReconnectPolicy = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
    )
        async throws -> ParleyClient
    {
        try ParleyClient(
            configuration: ParleyConfiguration(serverURL: url, appKey: "dev-key", reconnect: reconnect),
            tokenProvider: StaticTokenProvider(try await token(for: name)), documents: documents)
    }

    private func post(_ path: String, _ body: JSONObject) async throws -> JSONValue {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        let response = try await SocketHTTPTransport().send(
            HTTPRequestMessage(
                method: "POST", url: url + path, headers: headers,
                body: JSONWriter.serialize(.object(body))))
        return try JSONParser.parse(response.body)
    }
}

/// Wraps a transport so a test can take the network away: while offline, connecting fails
/// and every open connection is closed (4100: reconnect after backoff).
final class SwitchableTransport: DocumentTransport {
    private struct State {
        var online = true
        var open: [Int: any DocumentConnection] = [:]
        var nextID = 0
        var connects = 0
    }

    private let inner: any DocumentTransport
    private let state = Mutex(State())

    init(_ inner: any DocumentTransport = WebSocketDocumentTransport()) { self.inner = inner }

    /// Successful connects so far.
    var connects: Int { state.withLock { $0.connects } }

    func setOnline(_ online: Bool) {
        let cut = state.withLock { state -> [any DocumentConnection] in
            state.online = online
            return online ? [] : Array(state.open.values)
        }
        for connection in cut { connection.close(code: 4100) }
    }

    func connect(url: String, token: String, appID: String?) async throws(ParleyError) -> any DocumentConnection {
        guard state.withLock({ $0.online }) else { throw ParleyError(.network, "offline (test)") }
        let connection = try await inner.connect(url: url, token: token, appID: appID)
        let accepted = state.withLock { state -> Bool in
            guard state.online else { return false }
            state.nextID += 1
            state.open[state.nextID] = connection
            state.connects += 1
            return true
        }
        if !accepted {
            connection.close(code: 1000)
            throw ParleyError(.network, "offline (test)")
        }
        return connection
    }
}

/// A scripted server for one connection: the test pushes frames and reads what the session sent.
final class ScriptedTransport: DocumentTransport {
    private struct State {
        var sink: AsyncStream<DocumentFrame>.Continuation?
        var sent: [[UInt8]] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func connect(url: String, token: String, appID: String?) async throws(ParleyError) -> any DocumentConnection {
        let (frames, sink) = AsyncStream<DocumentFrame>.makeStream()
        let waiters = state.withLock { state in
            state.sink = sink
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
        return Connection(frames: frames, transport: self)
    }

    /// Waits until the session has connected.
    func waitForConnection() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.sink != nil { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Delivers a binary message to the session.
    func push(_ message: [UInt8]) {
        _ = state.withLock { $0.sink?.yield(.binary(message)) }
    }

    /// The messages the session sent, decoded (nil where one does not decode).
    var sent: [YSyncMessage?] { state.withLock { $0.sent }.map { try? YSyncMessage.decode($0) } }

    fileprivate func record(_ message: [UInt8]) { state.withLock { $0.sent.append(message) } }

    fileprivate func closed() { state.withLock { $0.sink?.finish() } }

    private struct Connection: DocumentConnection {
        let frames: AsyncStream<DocumentFrame>
        let transport: ScriptedTransport
        func send(_ message: [UInt8]) { transport.record(message) }
        func close(code: Int) { transport.closed() }
    }
}

/// Waits until a session's snapshot satisfies `condition`; returns that snapshot.
@discardableResult
func waitFor(_ session: DocumentSession, _ condition: @Sendable (DocumentSnapshot) -> Bool) async -> DocumentSnapshot? {
    for await snapshot in session.snapshots() where condition(snapshot) { return snapshot }
    return nil
}
