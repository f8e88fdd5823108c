import ParleyKit
import ParleyUI

/// Everything the chat screen shows, as one value: the models' snapshots plus the client's
/// own view state. ``TerminalScreen`` turns it into a frame.
public struct ChatScreenState: Sendable, Equatable {
    /// Which view is on screen.
    public enum Mode: Sendable, Equatable {
        /// The room list.
        case rooms
        /// One room's conversation.
        case room
        /// A shared document of the open room (`/doc NAME`).
        case document
        /// A thread of the open room (`/thread SEQ`).
        case thread
        /// Message search results (`/search TEXT`).
        case search
    }

    /// The view on screen.
    public var mode: Mode = .rooms
    /// The signed-in user's display name.
    public var userName: String
    /// The signed-in user's id, once known (mentions of it are highlighted).
    public var userID = ""
    /// The room list.
    public var roomList: RoomListSnapshot?
    /// The selected row of the room list.
    public var selectedRow = 0
    /// The open room's conversation.
    public var conversation: ConversationSnapshot?
    /// The open thread, in ``Mode/thread``.
    public var thread: ThreadSnapshot?
    /// The search results, in ``Mode/search``.
    public var search: SearchSnapshot?
    /// The title of the room searched, nil when all rooms are.
    public var searchRoomTitle: String?
    /// The selected search result, an index of the results (their count: the "more results"
    /// row), nil when none is; Enter opens the selected result's room at it.
    public var selectedResult: Int?
    /// The message the conversation marks, by seq: the search result opened.
    public var markedSeq: Int64?
    /// The open shared document, in ``Mode/document``.
    public var document: DocumentEditorSnapshot?
    /// Attachment metadata known so far, by id (labels show type, pixels and size).
    public var attachments: [String: Attachment] = [:]
    /// The composer (in a room) or the command line (in the list).
    public var editor = LineEditor()
    /// The composer's character limit.
    public var characterLimit = 256
    /// Rows scrolled up from the newest message.
    public var scrollBack = 0
    /// A transient message from the last command, or nil.
    public var notice: String?
    /// Whether the help overlay is shown.
    public var showsHelp = false
    /// Times and day separators use this offset from UTC, in seconds.
    public var utcOffsetSeconds = 0

    /// Creates a state for a user.
    public init(userName: String) {
        self.userName = userName
    }

    /// The connection state to show (the room list's, else the conversation's).
    var connection: ConnectionState? { roomList?.connection ?? conversation?.connection }
}
