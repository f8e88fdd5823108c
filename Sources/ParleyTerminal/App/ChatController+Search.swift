import ParleyKit
import ParleyUI

/// `/search [--here] TEXT`: the messages of the user's rooms (or the open room) that match,
/// best first, over the room list or the room; typing another query and Enter searches again,
/// Enter on an empty line reads more results, Esc or `/search` alone closes them.
extension ChatController {
    /// Runs a search, or closes the results for an empty `query`.
    func search(_ query: String, inRoom: Bool) async {
        guard !query.allSatisfy(\.isWhitespace) else {
            await closeSearch()
            return
        }
        var roomID: String?
        if inRoom {
            guard let current = hereRoomID else {
                state.notice = "Open a room first to search only in it"
                return
            }
            roomID = current
        }
        if state.mode != .search || searchRoomID != roomID { await openSearch(roomID: roomID) }
        state.scrollBack = 0
        await searchModel?.search(query)
        if let model = searchModel { searchChanged(model, await model.snapshot()) }
    }

    /// The room `--here` means: the open room, or in the results, the room they are limited
    /// to, else the room the search was started from.
    private var hereRoomID: String? {
        switch state.mode {
        case .room, .thread: openRoomID
        case .search: searchRoomID ?? (modeBeforeSearch == .room ? openRoomID : nil)
        case .rooms, .document: nil
        }
    }

    /// The room the open results are limited to, nil for all rooms.
    private var searchRoomID: String? { state.search?.roomID }

    /// Shows the (empty) results view with a new model for all rooms or `roomID`.
    private func openSearch(roomID: String?) async {
        await stopSearchModel()
        if state.mode == .thread { await closeThread() }
        if state.mode != .search { modeBeforeSearch = state.mode == .rooms ? .rooms : .room }
        if state.mode == .rooms { listEditor = LineEditor() }
        let model = SearchModel(client: client, roomID: roomID)
        searchModel = model
        state.search = await model.snapshot()
        state.searchRoomTitle = roomID.map { id in roomID == openRoomID ? (state.conversation?.title ?? id) : id }
        state.mode = .search
        state.editor.set("")
        let snapshots = model.snapshots()
        searchTask = Task { for await next in snapshots { self.searchChanged(model, next) } }
    }

    /// Closes the results and shows the view they were opened from.
    func closeSearch() async {
        await stopSearchModel()
        guard state.mode == .search else { return }
        state.search = nil
        state.searchRoomTitle = nil
        state.scrollBack = 0
        state.editor.set("")
        if modeBeforeSearch == .room, let openRoomID {
            await open(openRoomID)
        } else {
            await showRoomList()
        }
    }

    private func stopSearchModel() async {
        searchTask?.cancel()
        searchTask = nil
        await searchModel?.stop()
        searchModel = nil
    }

    private func searchChanged(_ model: SearchModel, _ snapshot: SearchSnapshot) {
        guard model === searchModel else { return }
        state.search = snapshot
        render()
    }

    /// Moves the results by `rows`, not past the last screenful.
    private func scrollResults(by rows: Int) {
        let screen = TerminalScreen(state: state, size: size)
        let lastStart = screen.searchLineCount - screen.bodyRows
        state.scrollBack = min(max(0, state.scrollBack + rows), max(0, lastStart))
    }

    func handleInSearch(_ key: TerminalKey) async {
        switch key {
        case .escape:
            await closeSearch()
        // The results read from the top: Down and PgDn move on to later ones.
        case .down: scrollResults(by: 1)
        case .up: scrollResults(by: -1)
        case .pageDown: scrollResults(by: max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .pageUp: scrollResults(by: -max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .enter:
            let line = state.editor.text
            state.editor.set("")
            if line.allSatisfy(\.isWhitespace) {
                await searchModel?.loadMore()
                return
            }
            switch ChatInput.parse(line) {
            case .message(let text): await search(text, inRoom: searchRoomID != nil)
            case let input: await run(input)
            }
        default:
            state.editor.apply(key)
        }
    }
}
