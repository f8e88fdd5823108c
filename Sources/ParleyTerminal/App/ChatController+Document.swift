import ParleyKit
import ParleyUI

/// `/doc NAME`: the shared text editor on one of the room's documents.
extension ChatController {
    /// Opens the room's document `name` in the editor.
    func openDocument(_ name: String, in roomID: String) async {
        await closeDocument()
        let session: DocumentSession
        do {
            let me = try await client.userID()
            session = try await client.openDocument(
                room: roomID, name: name,
                presence: DocumentPresence(userID: me, name: state.userName))
        } catch {
            state.notice = "Could not open \(name): \(error.message)"
            return
        }
        let model = DocumentEditorModel(session: session, name: name)
        documentModel = model
        state.document = await model.snapshot
        state.mode = .document
        let snapshots = model.snapshots()
        documentTask = Task { for await next in snapshots { self.documentChanged(model, next) } }
        await model.start()
    }

    private func documentChanged(_ model: DocumentEditorModel, _ snapshot: DocumentEditorSnapshot) {
        guard model === documentModel else { return }
        state.document = snapshot
        if case .closed(let reason) = snapshot.connection, state.mode == .document {
            state.notice = "The document closed: \(reason)"
        }
        render()
    }

    /// Closes the editor (if open) and shows the room again.
    func closeDocument() async {
        documentTask?.cancel()
        documentTask = nil
        let model = documentModel
        documentModel = nil
        state.document = nil
        if state.mode == .document { state.mode = .room }
        await model?.close()
    }

    /// Keys in the editor: typing edits live; Esc goes back to the chat.
    func handleInDocument(_ key: TerminalKey) async {
        guard let model = documentModel else {
            state.mode = .room
            return
        }
        do throws(ParleyError) {
            switch key {
            case .character(let character): try await model.type(String(character))
            case .enter: try await model.type("\n")
            case .tab: try await model.type("    ")
            case .backspace: try await model.backspace()
            case .delete: try await model.deleteForward()
            default: break
            }
        } catch {
            state.notice = "Not edited: \(error.message)"
        }
        switch key {
        case .escape: await closeDocument()
        case .left: await model.move(.left)
        case .right: await model.move(.right)
        case .up: await model.move(.up)
        case .down: await model.move(.down)
        case .home, .control("a"): await model.move(.lineStart)
        case .end, .control("e"): await model.move(.lineEnd)
        default: break
        }
        state.document = await model.snapshot
    }
}
