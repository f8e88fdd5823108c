import ParleyKit
import ParleyKitTesting

@testable import ParleyTerminal

/// A suite whose controllers are clients of one in-memory chat server, all at one terminal
/// size: the setup the controller suites share.
protocol InMemoryControllers: ControllerDriving {
    /// The server every client of the suite talks to.
    var server: InMemoryChatServer { get }
    /// The terminal size of every controller.
    var size: TerminalSize { get }
}

extension InMemoryControllers {
    /// A client signed in as `user` (added to the server when new), sending read cursors 10 ms
    /// after a change so tests see them soon.
    func client(_ user: String) throws -> ParleyClient {
        server.addUser(user, name: user)
        let configuration = ParleyConfiguration(serverURL: "http://fake", appKey: server.appKey, cursorDebounce: .milliseconds(10))
        return try ParleyClient(
            configuration: configuration, tokenProvider: StaticTokenProvider(server.token(for: user)),
            http: server, realtime: server)
    }

    /// A controller for `user`, not started; by default it reads no files (`/image`, `/file`).
    func controller(_ user: String, options: ChatController.Options = .init(readFile: { _ in nil })) throws -> ChatController {
        ChatController(client: try client(user), userName: user, size: size, options: options)
    }
}
