import ParleyKit
import ParleyUI

/// Keys: navigation, editing, and Enter running the composer line.
extension ChatController {
    /// Handles one key.
    public func handle(_ key: TerminalKey) async {
        guard !finished else { return }
        if key == .control("c") {
            await quit()
            return
        }
        if state.showsHelp {
            state.showsHelp = false
            if key == .escape || key == .enter {
                render()
                return
            }
        }
        if state.notice != nil, key != .enter { state.notice = nil }
        switch state.mode {
        case .rooms: await handleInList(key)
        case .room: await handleInRoom(key)
        case .document: await handleInDocument(key)
        case .thread: await handleInThread(key)
        case .search: await handleInSearch(key)
        }
        render()
    }

    private func handleInList(_ key: TerminalKey) async {
        let count = state.roomList?.rows.count ?? 0
        switch key {
        case .up: select(state.selectedRow - 1, of: count)
        case .down: select(state.selectedRow + 1, of: count)
        case .pageUp: select(state.selectedRow - 10, of: count)
        case .pageDown: select(state.selectedRow + 10, of: count)
        case .escape: state.editor.set("")
        case .tab:
            if let openRoomID { await open(openRoomID) }
        case .enter:
            let line = state.editor.text
            if line.trimmingTrailingSpaces().isEmpty {
                if let id = selectedRoomID { await open(id) }
            } else {
                state.editor.set("")
                await run(ChatInput.parse(line))
            }
        default:
            state.editor.apply(key)
        }
    }

    private func select(_ row: Int, of count: Int) {
        guard count > 0 else { return }
        state.selectedRow = min(max(0, row), count - 1)
        selectedRoomID = state.roomList?.rows[state.selectedRow].id
    }

    private func handleInRoom(_ key: TerminalKey) async {
        switch key {
        case .tab where state.editor.mentionPrefix != nil:
            await completeMention()
        case .escape, .tab:
            await showRoomList()
        case .up: await scroll(by: 1)
        case .down: await scroll(by: -1)
        case .pageUp: await scroll(by: max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .pageDown: await scroll(by: -max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .enter:
            let line = state.editor.text
            guard !line.trimmingTrailingSpaces().isEmpty else { return }
            let input = ChatInput.parse(line)
            if case .message = input {
                await sendDraft()
            } else {
                state.editor.set("")
                await updateDraft()
                await run(input)
            }
        default:
            if state.editor.apply(key) { await updateDraft() }
        }
    }

    /// Tells the model what the composer holds: a command line is no draft and no typing.
    func updateDraft() async {
        guard let openRoomID, let model = conversations[openRoomID] else { return }
        let text = state.editor.text
        await model.updateDraft(text.hasPrefix("/") ? "" : text)
    }

    private func sendDraft() async {
        guard let openRoomID, let model = conversations[openRoomID] else { return }
        state.scrollBack = 0
        await model.send()
        let snapshot = await model.snapshot()
        state.editor.set(snapshot.composer.draft)
        conversationChanged(openRoomID, snapshot)
    }

    private func scroll(by rows: Int) async {
        state.scrollBack = max(0, state.scrollBack + rows)
        guard rows > 0, let openRoomID, let model = conversations[openRoomID], let conversation = state.conversation,
            conversation.hasOlder
        else { return }
        // Reaching the top loads the page before it.
        let screen = TerminalScreen(state: state, size: size)
        var probe = state
        probe.scrollBack = Int.max / 2
        let top = TerminalScreen(state: probe, size: size).conversationLines()
        if screen.conversationLines() == top { await model.loadOlder() }
    }

    // MARK: Views

    /// Opens a room's conversation.
    func open(_ roomID: String) async {
        if state.mode == .rooms { listEditor = state.editor }
        if let current = openRoomID, current != roomID { await conversations[current]?.setVisible(false) }
        openRoomID = roomID
        selectedRoomID = roomID
        state.roomList = await roomList.snapshot()
        syncSelection()
        state.mode = .room
        state.scrollBack = 0
        state.markedSeq = nil
        state.showsHelp = false
        await roomList.setActiveRoom(roomID)
        let model: ConversationModel
        if let existing = conversations[roomID] {
            model = existing
        } else {
            model = ConversationModel(
                client: client, roomID: roomID, drafts: drafts,
                options: .init(characterLimit: options.characterLimit, utcOffsetSeconds: options.utcOffsetSeconds))
            conversations[roomID] = model
            state.conversation = nil
            state.editor.set(await drafts.draft(for: roomID))
            render()
            await model.start()
        }
        guard openRoomID == roomID else { return }
        await model.setVisible(true)
        let snapshot = await model.snapshot()
        state.editor.set(snapshot.composer.draft)
        conversationChanged(roomID, snapshot)
        conversationTask?.cancel()
        let snapshots = model.snapshots()
        conversationTask = Task { for await next in snapshots { self.conversationChanged(roomID, next) } }
    }

    /// Back to the room list (the room's draft stays in the draft store).
    func showRoomList() async {
        await closeThread()
        if let openRoomID { await conversations[openRoomID]?.setVisible(false) }
        conversationTask?.cancel()
        conversationTask = nil
        state.mode = .rooms
        state.conversation = nil
        state.markedSeq = nil
        state.editor = listEditor
        await roomList.setActiveRoom(nil)
    }
}
