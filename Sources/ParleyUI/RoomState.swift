import Observation
import ParleyKit

/// A room's people as observable state for SwiftUI: its members with their roles, who is
/// typing, and how far each member has read (for "seen by" marks).
///
/// ``start()`` returns once the members and read positions are loaded; after that the room's
/// live events keep them current (joins, leaves, role changes, cursors, typing).
@MainActor @Observable
public final class RoomState {
    /// The room's id.
    public let roomID: String
    /// The members, by user id.
    public private(set) var members: [Membership] = []
    /// The other users typing now, sorted.
    public private(set) var typingUserIDs: [String] = []
    /// Each member's read position: the seq up to which they have read.
    public private(set) var readSeqs: [String: Int64] = [:]
    /// The room, once loaded; it follows ``RoomEvent/roomUpdated(_:)``.
    public private(set) var room: ChatRoom?
    /// Whether the room was deleted while watched.
    public private(set) var isDeleted = false
    /// The last failure worth telling the user (loading, a refused subscription).
    public private(set) var notice: String?

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private var follower: Task<Void, Never>?

    /// State of `roomID` for `client`, filled by ``start()``.
    public init(client: ParleyClient, roomID: String) {
        self.client = client
        self.roomID = roomID
    }

    /// The members (other than `userID`) who have read the message with `seq`, sorted.
    public func readers(of seq: Int64, except userID: String? = nil) -> [String] {
        readSeqs.filter { $0.value >= seq && $0.key != userID }.keys.sorted()
    }

    /// Loads the room, members and read positions, then follows the room live.
    public func start() async {
        guard follower == nil else { return }
        let events: AsyncStream<RoomEvent>
        do throws(ParleyError) {
            events = try await client.roomEvents(roomID)
        } catch {
            notice = error.message
            return
        }
        follower = Task { [weak self] in
            for await event in events { await self?.apply(event) }
        }
        await reload()
    }

    /// Stops following the room; the properties keep their last values.
    public func stop() {
        follower?.cancel()
        follower = nil
    }

    /// Reads the room, its members and cursors again from the server.
    public func reload() async {
        do throws(ParleyError) {
            room = try await client.room(roomID)
            members = try await client.members(of: roomID).sorted { $0.userID < $1.userID }
            var seqs: [String: Int64] = [:]
            for cursor in try await client.cursors(in: roomID) { seqs[cursor.userID] = cursor.seq }
            for (user, seq) in readSeqs where seq > (seqs[user] ?? -1) { seqs[user] = seq }  // a live cursor may be newer
            readSeqs = seqs
        } catch {
            notice = error.message
        }
    }

    private func apply(_ event: RoomEvent) async {
        switch event {
        case .typing(let users):
            typingUserIDs = users
        case .cursor(let cursor):
            readSeqs[cursor.userID] = max(readSeqs[cursor.userID] ?? 0, cursor.seq)
        case .memberUpdated(let member):
            if let index = members.firstIndex(where: { $0.userID == member.userID }) {
                members[index] = member
            } else {
                members.append(member)
                members.sort { $0.userID < $1.userID }
            }
        case .memberJoined:
            // The event names only the user: the membership (role, read position) comes from the server.
            await reload()
        case .memberLeft(let user):
            members.removeAll { $0.userID == user }
            readSeqs[user] = nil
            typingUserIDs.removeAll { $0 == user }
        case .roomUpdated(let room):
            self.room = room
        case .roomDeleted:
            isDeleted = true
        case .subscriptionFailed(let error):
            notice = error.message
        default:
            break
        }
    }
}
