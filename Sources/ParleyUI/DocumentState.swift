import Observation
import ParleyKit

/// A collaborative document as observable state for SwiftUI: the content of the root types the
/// app names (texts, maps, arrays), the people editing and the connection, updated after every
/// local or remote change of the ``DocumentSession``.
///
/// Yjs root types carry no kind on the wire, so the app says which of its roots are texts, maps
/// and arrays, as it would with `doc.getText(…)`, `doc.getMap(…)` and `doc.getArray(…)`.
@MainActor @Observable
public final class DocumentState {
    /// The text roots by name.
    public private(set) var texts: [String: String] = [:]
    /// The map roots by name.
    public private(set) var maps: [String: [String: DocumentValue]] = [:]
    /// The array roots by name.
    public private(set) var arrays: [String: [DocumentValue]] = [:]
    /// The other clients present.
    public private(set) var peers: [DocumentPeer] = []
    /// The session's connection.
    public private(set) var connection: DocumentSessionState = .idle
    /// The session's version (increases with every change of the content).
    public private(set) var version = 0

    /// The session shown; edit through it, the properties follow.
    @ObservationIgnored public let session: DocumentSession
    @ObservationIgnored private let textNames: [String]
    @ObservationIgnored private let mapNames: [String]
    @ObservationIgnored private let arrayNames: [String]
    @ObservationIgnored private var followers: [Task<Void, Never>] = []

    /// State of `session` showing the named roots (the default is the session's main text, `text`).
    public init(session: DocumentSession, texts: [String] = ["text"], maps: [String] = [], arrays: [String] = []) {
        self.session = session
        textNames = texts
        mapNames = maps
        arrayNames = arrays
    }

    /// Follows the session; returns once the properties show its content now.
    public func start() async {
        guard followers.isEmpty else { return }
        let changes = session.changes(), snapshots = session.snapshots()
        followers.append(
            Task { [weak self] in
                for await change in changes { await self?.reload(roots: change.roots) }
            })
        followers.append(
            Task { [weak self] in
                for await snapshot in snapshots {
                    self?.peers = snapshot.peers
                    self?.connection = snapshot.state
                }
            })
        await reload(roots: nil)
        connection = await session.connectionState
    }

    /// Stops following; the properties keep their last values.
    public func stop() {
        for follower in followers { follower.cancel() }
        followers = []
    }

    /// Reads the named roots that changed (`nil`: all of them) from the session.
    private func reload(roots: Set<String>?) async {
        for name in textNames where roots?.contains(name) ?? true {
            let text = await session.text(named: name)
            if texts[name] != text { texts[name] = text }
        }
        for name in mapNames where roots?.contains(name) ?? true {
            let entries = await session.map(named: name)
            if maps[name] != entries { maps[name] = entries }
        }
        for name in arrayNames where roots?.contains(name) ?? true {
            let elements = await session.array(named: name)
            if arrays[name] != elements { arrays[name] = elements }
        }
        version = max(version, await session.snapshot.version)
    }
}
