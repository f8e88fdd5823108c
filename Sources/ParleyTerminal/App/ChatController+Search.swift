import ParleyKit
import ParleyUI

/// `/search [--here] TEXT`: the messages of the user's rooms (or the open room) that match,
/// best first, over the room list or the room; typing another query and Enter searches again.
/// Up and Down select a result and Enter opens its room at it, the message marked; Enter with
/// none selected (or on the "more results" row) reads more; Esc or `/search` alone closes them.
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
        state.selectedResult = nil
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
        state.selectedResult = nil
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
        // A selection past the entries (the "more results" row, gone with the last page) moves
        // to the last one.
        if let selected = state.selectedResult, let last = lastEntry(of: snapshot) {
            state.selectedResult = min(selected, last)
        } else {
            state.selectedResult = nil
        }
        render()
    }

    /// The index of the last selectable entry: the "more results" row, else the last result.
    private func lastEntry(of search: SearchSnapshot) -> Int? {
        let last = search.results.count - (search.hasMore ? 0 : 1)
        return last >= 0 ? last : nil
    }

    /// Moves the selection by `step` entries and scrolls it into view; Up from the first
    /// result leaves none selected (Enter reads more again).
    private func moveSelection(by step: Int) {
        guard let search = state.search, let last = lastEntry(of: search) else { return }
        let next: Int?
        if let current = state.selectedResult {
            next = current + step < 0 ? nil : min(current + step, last)
        } else {
            next = step > 0 ? 0 : nil
        }
        state.selectedResult = next
        guard let next else {
            state.scrollBack = 0
            return
        }
        let screen = TerminalScreen(state: state, size: size)
        guard let lines = screen.searchLines(ofEntry: next) else { return }
        if lines.lowerBound < state.scrollBack {
            state.scrollBack = lines.lowerBound
        } else if lines.upperBound > state.scrollBack + screen.bodyRows {
            state.scrollBack = min(lines.lowerBound, lines.upperBound - screen.bodyRows)
        }
    }

    /// Closes the results and opens `result`'s room with the message loaded, marked and on
    /// screen; says so when it is too far back to load.
    private func openResult(_ result: SearchResultRow) async {
        await stopSearchModel()
        state.search = nil
        state.searchRoomTitle = nil
        state.selectedResult = nil
        state.editor.set("")
        await open(result.roomID)
        guard openRoomID == result.roomID, let model = conversations[result.roomID] else { return }
        let found = await model.loadThrough(seq: result.seq)
        guard openRoomID == result.roomID else { return }
        state.markedSeq = found ? result.seq : nil
        conversationChanged(result.roomID, await model.snapshot())
        if let scrollBack = TerminalScreen(state: state, size: size).scrollBackShowingMarked {
            state.scrollBack = scrollBack
        } else {
            state.markedSeq = nil
            state.notice = "That message is too far back to show here"
        }
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
        case .down: moveSelection(by: 1)
        case .up: moveSelection(by: -1)
        case .pageDown: scrollResults(by: max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .pageUp: scrollResults(by: -max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .enter:
            let line = state.editor.text
            state.editor.set("")
            if line.allSatisfy(\.isWhitespace) {
                if let selected = state.selectedResult, let results = state.search?.results, results.indices.contains(selected) {
                    await openResult(results[selected])
                } else {
                    await searchModel?.loadMore()
                }
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
