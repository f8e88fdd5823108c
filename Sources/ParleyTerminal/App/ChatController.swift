import ParleyKit
import ParleyUI

/// The terminal chat client's logic: keys in, frames out. It owns the UI models, the view
/// state and the commands; it does no terminal I/O, so tests drive it with keys against the
/// in-memory server and read its frames as text.
///
/// Observe ``frames()``; the stream ends when the user quits.
public actor ChatController {
    /// Settings of the client.
    public struct Options: Sendable {
        /// The composer's character limit.
        public var characterLimit: Int
        /// Times and day separators use this offset from UTC, in seconds.
        public var utcOffsetSeconds: Int
        /// Reads a file for `/image` (injected so tests need no files).
        public var readFile: @Sendable (String) -> [UInt8]?

        /// Creates options.
        public init(
            characterLimit: Int = 256, utcOffsetSeconds: Int = 0,
            readFile: @escaping @Sendable (String) -> [UInt8]? = FileBytes.read
        ) {
            self.characterLimit = characterLimit
            self.utcOffsetSeconds = utcOffsetSeconds
            self.readFile = readFile
        }
    }

    let client: ParleyClient
    let options: Options
    let drafts = DraftStore()
    let roomList: RoomListModel
    var state: ChatScreenState
    var size: TerminalSize
    var conversations: [String: ConversationModel] = [:]
    var openRoomID: String?
    var selectedRoomID: String?
    var listEditor = LineEditor()
    var tasks: [Task<Void, Never>] = []
    var conversationTask: Task<Void, Never>?
    var documentModel: DocumentEditorModel?
    var documentTask: Task<Void, Never>?
    var threadModel: ThreadModel?
    var threadTask: Task<Void, Never>?
    var searchModel: SearchModel?
    var searchTask: Task<Void, Never>?
    /// The view to return to when the search closes (the room list or the open room).
    var modeBeforeSearch: ChatScreenState.Mode = .rooms
    /// The room's composer text while its thread is open.
    var roomDraft = ""
    var fetchingAttachments: Set<String> = []
    var finished = false
    private let hub = Broadcaster<Frame>(replayLatest: true)
    private var lastFrame: Frame?

    /// Creates the controller for a signed-in client; call ``start()`` next.
    public init(client: ParleyClient, userName: String, size: TerminalSize, options: Options = Options()) {
        self.client = client
        self.options = options
        self.size = size
        roomList = RoomListModel(client: client)
        var state = ChatScreenState(userName: userName)
        state.characterLimit = options.characterLimit
        state.utcOffsetSeconds = options.utcOffsetSeconds
        self.state = state
    }

    /// Every frame to draw, the latest first; ends when the user quits.
    public nonisolated func frames() -> AsyncStream<Frame> { hub.stream() }

    /// The screen state now (for tests).
    public var screenState: ChatScreenState { state }

    /// The frame now.
    public func currentFrame() -> Frame { TerminalScreen(state: state, size: size).frame() }

    /// Connects and shows the room list.
    public func start() async {
        render()
        do { try await client.connect() } catch { state.notice = "Cannot connect: \(error.message)" }
        state.userID = (try? await client.userID()) ?? ""
        let lists = roomList.snapshots()
        tasks.append(Task { for await snapshot in lists { self.roomListChanged(snapshot) } })
        await roomList.start()
    }

    /// The terminal changed size.
    public func resize(_ newSize: TerminalSize) {
        size = newSize
        render()
    }

    /// Stops everything and ends the frame stream.
    public func quit() async {
        guard !finished else { return }
        finished = true
        for task in tasks { task.cancel() }
        conversationTask?.cancel()
        documentTask?.cancel()
        await documentModel?.close()
        threadTask?.cancel()
        await threadModel?.stop()
        searchTask?.cancel()
        await searchModel?.stop()
        await roomList.stop()
        for model in conversations.values { await model.stop() }
        await client.close()
        hub.finish()
    }

    // MARK: Model updates

    private func roomListChanged(_ snapshot: RoomListSnapshot) {
        state.roomList = snapshot
        syncSelection()
        render()
    }

    func conversationChanged(_ roomID: String, _ snapshot: ConversationSnapshot) {
        guard roomID == openRoomID else { return }
        state.conversation = snapshot
        fetchAttachmentMetadata(snapshot)
        render()
    }

    /// Keeps the selection on the same room when the list reorders. A selected room not in
    /// the list yet (just created, the list's update still on its way) stays selected.
    func syncSelection() {
        let rows = state.roomList?.rows ?? []
        if let selectedRoomID, let index = rows.firstIndex(where: { $0.id == selectedRoomID }) {
            state.selectedRow = index
            return
        }
        state.selectedRow = min(state.selectedRow, max(0, rows.count - 1))
        if selectedRoomID == nil, rows.indices.contains(state.selectedRow) { selectedRoomID = rows[state.selectedRow].id }
    }

    private func fetchAttachmentMetadata(_ snapshot: ConversationSnapshot) {
        for row in snapshot.messages {
            for case .attachment(let id) in row.parts where state.attachments[id] == nil && !fetchingAttachments.contains(id) {
                fetchingAttachments.insert(id)
                let client = self.client
                Task {
                    let meta = try? await client.attachment(id)
                    self.attachmentLoaded(id, meta)
                }
            }
        }
    }

    private func attachmentLoaded(_ id: String, _ meta: Attachment?) {
        fetchingAttachments.remove(id)
        guard let meta else { return }
        state.attachments[id] = meta
        render()
    }

    // MARK: Rendering

    func render() {
        guard !finished else { return }
        let frame = TerminalScreen(state: state, size: size).frame()
        guard frame != lastFrame else { return }
        lastFrame = frame
        hub.send(frame)
    }
}
