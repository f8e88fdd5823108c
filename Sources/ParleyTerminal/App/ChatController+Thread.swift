import ParleyKit
import ParleyUI

/// `/thread SEQ`: a message's thread (its root, then the replies) over the room; what is typed
/// there replies in the thread; Esc or `/back` returns to the room.
extension ChatController {
    /// Opens the thread of the message `messageID` (a reply opens its root's thread).
    func openThread(_ messageID: Int64) async {
        guard let roomID = openRoomID else { return }
        await closeThread()
        let model = ThreadModel(client: client, roomID: roomID, rootID: messageID)
        threadModel = model
        state.thread = nil
        state.mode = .thread
        state.scrollBack = 0
        roomDraft = state.editor.text
        state.editor.set("")
        render()
        let snapshots = model.snapshots()
        threadTask = Task { for await next in snapshots { self.threadChanged(model, next) } }
        await model.start()
        threadChanged(model, await model.snapshot())
    }

    /// Closes the thread (if open); in the thread view, the room shows again with its draft.
    func closeThread() async {
        threadTask?.cancel()
        threadTask = nil
        await threadModel?.stop()
        threadModel = nil
        state.thread = nil
        guard state.mode == .thread else { return }
        state.mode = .room
        state.scrollBack = 0
        state.editor.set(roomDraft)
        if let openRoomID, let model = conversations[openRoomID] { conversationChanged(openRoomID, await model.snapshot()) }
    }

    private func threadChanged(_ model: ThreadModel, _ snapshot: ThreadSnapshot) {
        guard model === threadModel else { return }
        state.thread = snapshot
        render()
    }

    func handleInThread(_ key: TerminalKey) async {
        switch key {
        case .escape:
            await closeThread()
        case .tab where state.editor.mentionPrefix != nil:
            await completeMention()
        case .up: state.scrollBack += 1
        case .down: state.scrollBack = max(0, state.scrollBack - 1)
        case .pageUp: state.scrollBack += max(1, TerminalScreen(state: state, size: size).bodyRows - 1)
        case .pageDown: state.scrollBack = max(0, state.scrollBack - max(1, TerminalScreen(state: state, size: size).bodyRows - 1))
        case .enter:
            let line = state.editor.text
            guard !line.trimmingTrailingSpaces().isEmpty else { return }
            state.editor.set("")
            let input = ChatInput.parse(line)
            if case .message(let text) = input {
                state.scrollBack = 0
                await threadModel?.send(text)
                if let model = threadModel { threadChanged(model, await model.snapshot()) }
            } else {
                await run(input)
            }
        default:
            state.editor.apply(key)
        }
    }

    /// Tab after `@abc`: completes the member id starting with `abc` (or as far as the
    /// candidates agree, listing them).
    func completeMention() async {
        guard let roomID = openRoomID, let prefix = state.editor.mentionPrefix else { return }
        let ids: [String]
        do {
            ids = try await client.members(of: roomID).map(\.userID).filter { $0.hasPrefix(prefix) && $0 != state.userID }.sorted()
        } catch {
            state.notice = "Cannot list the members: \(error.message)"
            return
        }
        guard let first = ids.first else {
            state.notice = "No member's id starts with \(prefix)"
            return
        }
        var common = first
        for id in ids.dropFirst() { common = String(zip(common, id).prefix { $0 == $1 }.map(\.0)) }
        state.editor.completeMention(with: common, finished: ids.count == 1)
        if ids.count > 1 { state.notice = ids.map { "@" + $0 }.joined(separator: " ") }
        if state.mode == .room { await updateDraft() }
    }
}
