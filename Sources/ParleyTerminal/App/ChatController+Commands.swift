import ParleyKit
import ParleyUI

/// The slash commands.
extension ChatController {
    /// Runs a parsed composer line.
    func run(_ input: ChatInput) async {
        do throws(ParleyError) {
            switch input {
            case .message:
                state.notice = "Open a room first (Enter), or /help for the commands"
            case .join(let roomID):
                try await client.join(roomID)
                await roomList.refresh()
                await open(roomID)
            case .create(let name, let isPublic):
                let room = try await client.createRoom(name: name, kind: isPublic ? .public : .private)
                await roomList.refresh()
                await open(room.id)
                state.notice = "Created \(name) — /invite USER to add people"
            case .directMessage(let userID):
                let room = try await client.directRoom(with: userID)
                await roomList.refresh()
                await open(room.id)
            case .leave:
                guard let roomID = requireRoom() else { return }
                try await client.leave(roomID)
                await conversations.removeValue(forKey: roomID)?.stop()
                openRoomID = nil
                selectedRoomID = nil
                await showRoomList()
                await roomList.refresh()
                state.notice = "Left the room"
            case .invite(let userID):
                guard let roomID = requireRoom() else { return }
                try await client.addMember(userID, to: roomID)
                state.notice = "Invited \(userID)"
            case .image(let path):
                try await sendImage(path)
            case .file(let path):
                try await sendFile(path)
            case .edit(let seq, let text):
                guard let model = openModel(), let id = target(seq: seq, ownOnly: true) else { return }
                await model.edit(messageID: id, text: text)
            case .delete(let seq):
                guard let model = openModel(), let id = target(seq: seq, ownOnly: true) else { return }
                await model.delete(messageID: id)
            case .react(let seq, let emoji):
                guard let model = openModel(), let id = target(seq: seq, ownOnly: false) else { return }
                await model.react(emoji, to: id)
            case .thread(let seq):
                guard requireRoom() != nil, let id = target(seq: seq, ownOnly: false) else { return }
                await openThread(id)
            case .back:
                if state.mode == .thread {
                    await closeThread()
                } else {
                    await showRoomList()
                }
            case .document(let name):
                guard let roomID = requireRoom() else { return }
                await openDocument(name, in: roomID)
            case .retry:
                guard let model = openModel() else { return }
                let failed = (state.conversation?.messages ?? []).filter { if case .failed = $0.status { true } else { false } }
                for row in failed { if let clientID = row.clientID { await model.retry(clientID: clientID) } }
                state.notice = failed.isEmpty ? "Nothing to retry" : "Retrying \(failed.count) message(s)"
            case .block(let userID):
                try await client.block(userID)
                state.notice = "Blocked \(userID): their messages are hidden"
            case .unblock(let userID):
                try await client.unblock(userID)
                state.notice = "Unblocked \(userID)"
            case .search(let query, let inRoom):
                await search(query, inRoom: inRoom)
            case .moderate(let command):
                guard let roomID = requireRoom() else { return }
                try await moderate(command, in: roomID)
            case .rooms:
                await showRoomList()
            case .help:
                state.showsHelp = true
            case .quit:
                await quit()
            case .invalid(let message):
                state.notice = message
            }
        } catch {
            state.notice = "Failed: " + error.message
        }
    }

    private func requireRoom() -> String? {
        guard state.mode == .room, let openRoomID else {
            state.notice = "Open a room first"
            return nil
        }
        return openRoomID
    }

    private func openModel() -> ConversationModel? {
        guard let roomID = requireRoom() else { return nil }
        return conversations[roomID]
    }

    /// The message a command acts on: `#seq`, else the latest (own, for edits and deletes).
    private func target(seq: Int64?, ownOnly: Bool) -> Int64? {
        let rows = (state.conversation?.messages ?? []).filter { $0.messageID != nil && !$0.isDeleted }
        let row: MessageRow?
        if let seq {
            row = rows.first { $0.seq == seq }
        } else {
            row = rows.last { !ownOnly || $0.direction == .outgoing }
        }
        guard let row, let id = row.messageID else {
            state.notice = seq.map { "No message #\($0)" } ?? (ownOnly ? "You have no message here to change" : "No message to react to")
            return nil
        }
        if ownOnly, row.direction != .outgoing {
            state.notice = "You can only change your own messages"
            return nil
        }
        return id
    }

    /// Any file, as a file part named after the path's last component: the server finds its
    /// type from the bytes (and applies the app's size and type limits).
    private func sendFile(_ path: String) async throws(ParleyError) {
        guard let roomID = requireRoom() else { return }
        guard let bytes = options.readFile(path), !bytes.isEmpty else {
            state.notice = "Cannot read \(path) (or it is empty)"
            return
        }
        let name = String(path.split(separator: "/").last ?? Substring(path))
        state.notice = "Uploading \(name) (\(TerminalScreen.byteCount(Int64(bytes.count))))…"
        render()
        let type = ImageType.detect(bytes) ?? "application/octet-stream"
        let attachment = try await client.upload(bytes, contentType: type, to: roomID, name: name)
        try await client.send([.file(FilePart(attachment))], to: roomID)
        state.notice = "Sent \(name)"
    }

    private func sendImage(_ path: String) async throws(ParleyError) {
        guard let roomID = requireRoom() else { return }
        guard let bytes = options.readFile(path) else {
            state.notice = "Cannot read \(path)"
            return
        }
        guard let type = ImageType.detect(bytes) else {
            state.notice = "\(path) is not a PNG, JPEG, GIF or WebP image"
            return
        }
        state.notice = "Uploading \(path) (\(TerminalScreen.byteCount(Int64(bytes.count))))…"
        render()
        let attachment = try await client.upload(bytes, contentType: type, to: roomID)
        state.attachments[attachment.id] = attachment
        try await client.send([.attachment(id: attachment.id)], to: roomID)
        state.notice = "Sent \(path)"
    }
}
