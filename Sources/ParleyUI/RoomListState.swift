import Observation
import ParleyKit

/// The room list as observable state for SwiftUI: a ``RoomListModel`` whose snapshots land in
/// properties on the main actor, so a view reads `state.rows` and redraws when it changes.
///
/// Each async call returns once the properties show its outcome. Call ``start()`` when the
/// screen appears and ``stop()`` when it goes away.
@MainActor @Observable
public final class RoomListState {
    /// The rooms, most recent activity first.
    public private(set) var rows: [RoomRow] = []
    /// A connection banner ("Connecting…", "Offline"), nil when online.
    public private(set) var banner: String?
    /// The client's connection state.
    public private(set) var connection: ConnectionState = .idle
    /// The last failure worth telling the user, nil once a later load succeeds.
    public private(set) var notice: String?

    /// Unread messages over all rooms (an app badge).
    public var totalUnread: Int { rows.reduce(0) { $0 + $1.unreadCount } }

    @ObservationIgnored private let model: RoomListModel
    @ObservationIgnored private var follower: Task<Void, Never>?

    /// State over a new ``RoomListModel`` of `client`.
    public convenience init(client: ParleyClient) {
        self.init(model: RoomListModel(client: client))
    }

    /// State over `model` (one it has not started).
    public init(model: RoomListModel) {
        self.model = model
    }

    /// Shows the cached rooms, then the server's, then follows changes; returns once the
    /// server's list (or the notice of why it could not be loaded) is in ``rows``.
    public func start() async {
        guard follower == nil else { return }
        let snapshots = model.snapshots()
        follower = Task { [weak self] in
            for await snapshot in snapshots { self?.apply(snapshot) }
        }
        await model.start()
        apply(await model.snapshot())
    }

    /// Reloads the list from the server.
    public func refresh() async {
        await model.refresh()
        apply(await model.snapshot())
    }

    /// The room on screen: its new messages do not raise its badge.
    public func setActiveRoom(_ roomID: String?) async {
        await model.setActiveRoom(roomID)
        apply(await model.snapshot())
    }

    /// Stops following changes; the properties keep their last values.
    public func stop() async {
        follower?.cancel()
        follower = nil
        await model.stop()
    }

    /// Copies a snapshot in, touching only what changed so observers of other properties are
    /// not invalidated.
    private func apply(_ snapshot: RoomListSnapshot) {
        if rows != snapshot.rows { rows = snapshot.rows }
        if banner != snapshot.banner { banner = snapshot.banner }
        if connection != snapshot.connection { connection = snapshot.connection }
        if notice != snapshot.notice { notice = snapshot.notice }
    }
}
