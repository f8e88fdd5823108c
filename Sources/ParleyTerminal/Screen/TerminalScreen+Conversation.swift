import ParleyKit
import ParleyUI

/// The conversation: day separators and messages, newest at the bottom, wrapped to the width.
extension TerminalScreen {
    func conversationLines() -> [StyledLine] {
        guard let conversation = state.conversation else { return [StyledLine(" Opening the room…", TextStyle(dim: true))] }
        var lines = conversationLayout(conversation).lines
        if lines.isEmpty { lines.append(StyledLine(" No messages yet — say hello.", TextStyle(dim: true))) }
        // The newest lines at the bottom, `scrollBack` rows up from there.
        let rows = bodyRows
        let maxScroll = max(0, lines.count - rows)
        let scroll = min(max(0, state.scrollBack), maxScroll)
        let end = lines.count - scroll
        var window = Array(lines[max(0, end - rows)..<end])
        if conversation.hasOlder, scroll == maxScroll, !window.isEmpty, lines.count >= rows {
            window[0] = StyledLine(" ↑ older messages: PgUp", TextStyle(dim: true))
        } else if conversation.hasOlder, lines.count < rows {
            window.insert(StyledLine(" ↑ older messages: PgUp", TextStyle(dim: true)), at: 0)
        }
        return window
    }

    /// The `scrollBack` that shows the marked message (``ChatScreenState/markedSeq``) in the
    /// middle of the screen, or from its first line when it is taller; nil when it is not loaded.
    public var scrollBackShowingMarked: Int? {
        guard let conversation = state.conversation else { return nil }
        let (lines, marked) = conversationLayout(conversation)
        guard let marked else { return nil }
        let rows = bodyRows
        let below = max(0, (rows - marked.count) / 2)
        let end = min(lines.count, marked.count > rows ? marked.lowerBound + rows : marked.upperBound + below)
        return max(0, lines.count - end)
    }

    /// Every line of the conversation, oldest first, and the marked message's lines.
    private func conversationLayout(_ conversation: ConversationSnapshot) -> (lines: [StyledLine], marked: Range<Int>?) {
        var lines: [StyledLine] = []
        var marked: Range<Int>?
        for item in conversation.items {
            switch item {
            case .day(let day): lines.append(daySeparator(day))
            case .message(let row):
                let start = lines.count
                lines += messageLines(row)
                if let seq = row.seq, seq == state.markedSeq { marked = start..<lines.count }
            }
        }
        return (lines, marked)
    }

    private func daySeparator(_ day: DayStamp) -> StyledLine {
        let label = " " + day.description + " "
        let side = max(2, (size.columns - DisplayWidth.of(label)) / 2)
        let rule = String(repeating: "─", count: side)
        return StyledLine(rule + label + rule, TextStyle(dim: true))
    }

    /// One message: `HH:MM name: text status`, continuation lines indented under the text.
    /// The marked message (the search result opened) starts with `▸` and its time and name
    /// are in reverse video.
    func messageLines(_ row: MessageRow) -> [StyledLine] {
        let outgoing = row.direction == .outgoing
        let marked = row.seq != nil && row.seq == state.markedSeq && state.mode == .room
        var head: [StyledLine.Span] = [
            .init(clock(row.createdAt) + " ", TextStyle(dim: !marked, reverse: marked)),
            .init(row.senderName, TextStyle(bold: true, reverse: marked, color: outgoing ? .cyan : .green)),
            .init(": ")
        ]
        if marked { head.insert(Self.selectionMarker, at: 0) }
        let indent = head.reduce(0) { $0 + DisplayWidth.of($1.text) }
        var body: [StyledLine.Span] = []
        if row.parentID != nil, state.mode != .thread { body.append(.init("↪ ", TextStyle(color: .cyan))) }
        if row.isDeleted {
            body.append(.init("(message deleted)", TextStyle(dim: true)))
        } else {
            if let quoted = row.quoted { body.append(quoteSpan(quoted, author: row.quotedSenderName)) }
            for part in row.parts {
                if let id = part.attachmentID, row.deletedAttachmentIDs.contains(id) {
                    body += [.init(Self.deletedFileLabel(part), TextStyle(dim: true)), .init(" ")]
                    continue
                }
                switch part {
                case .text(let text): body += mentionSpans(text, mentions: row.mentions)
                case .url(let url): body.append(.init(url, TextStyle(color: .blue)))
                case .attachment(let id): body.append(.init(attachmentLabel(id), TextStyle(bold: true, color: .magenta)))
                case .file(let file): body.append(.init(Self.fileLabel(file), TextStyle(bold: true, color: .magenta)))
                }
                body.append(.init(" "))
            }
            if body.last?.text == " " { body.removeLast() }
            if row.isEdited { body.append(.init(" (edited)", TextStyle(dim: true))) }
            for reaction in row.reactions { body.append(.init(" [\(reaction.emoji) \(reaction.count)]", TextStyle(color: .yellow))) }
        }
        if row.replyCount > 0, state.mode != .thread { body.append(replySpan(row)) }
        if outgoing { body.append(statusSpan(row.status)) }
        return wrap(head: head, body: body, indent: indent)
    }

    /// Text with its resolved mentions bold, and the signed-in user's in reverse video.
    private func mentionSpans(_ text: String, mentions: [String]) -> [StyledLine.Span] {
        MentionHighlight.segments(text, mentions: mentions).map { segment in
            guard let user = segment.userID else { return .init(segment.text) }
            return .init(segment.text, user == state.userID ? TextStyle(bold: true, reverse: true, color: .yellow) : TextStyle(bold: true))
        }
    }

    /// `“bob: the plan is A” ` before a quoting message's text.
    private func quoteSpan(_ quoted: QuotedMessage, author: String?) -> StyledLine.Span {
        if quoted.isDeleted { return .init("“(deleted message)” ", TextStyle(dim: true)) }
        let text = quoted.text.count > 60 ? String(quoted.text.prefix(59)) + "…" : quoted.text
        return .init("“" + (author ?? quoted.senderID) + ": " + text + "” ", TextStyle(dim: true))
    }

    /// `  ↳ 2 replies (bob, carol) — /thread 7` under a thread's root.
    private func replySpan(_ row: MessageRow) -> StyledLine.Span {
        var text = "  ↳ \(row.replyCount) " + (row.replyCount == 1 ? "reply" : "replies")
        if !row.lastReplierNames.isEmpty { text += " (" + row.lastReplierNames.joined(separator: ", ") + ")" }
        if let seq = row.seq { text += " — /thread \(seq)" }
        return .init(text, TextStyle(color: .cyan))
    }

    private func statusSpan(_ status: MessageRow.Status) -> StyledLine.Span {
        switch status {
        case .pending: .init("  … sending", TextStyle(dim: true))
        case .sent: .init("  ✓ sent", TextStyle(dim: true))
        case .seen: .init("  ✓ seen", TextStyle(color: .green))
        case .failed(let reason): .init("  ✗ failed: \(reason) — /retry", TextStyle(bold: true, color: .red))
        }
    }

    /// `[image image/png 640×480, 12.3 KB]` once the metadata is known.
    func attachmentLabel(_ id: String) -> String {
        guard let meta = state.attachments[id] else { return "[attachment \(id)]" }
        let kind = meta.contentType.hasPrefix("image/") ? "image" : "file"
        var label = "[" + kind + " " + meta.contentType
        if let width = meta.width, let height = meta.height { label += " \(width)×\(height)" }
        return label + ", " + Self.byteCount(meta.size) + "]"
    }

    /// `[file report.pdf deleted]`: a part whose attachment was deleted while the room was open.
    static func deletedFileLabel(_ part: MessagePart) -> String {
        guard case .file(let file) = part else { return "[attachment deleted]" }
        return "[" + (file.isImage ? "image" : "file") + " " + file.name + " deleted]"
    }

    /// `[file report.pdf application/pdf, 12.3 KB]`: a file part carries its own metadata.
    static func fileLabel(_ file: FilePart) -> String {
        var label = "[" + (file.isImage ? "image" : "file") + " " + file.name + " " + file.contentType
        if let width = file.width, let height = file.height { label += " \(width)×\(height)" }
        return label + ", " + byteCount(file.size) + "]"
    }

    /// `512 B`, `12.3 KB`, `4.0 MB`.
    static func byteCount(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) " + units[unit]
    }

    /// Lays spans out over rows of the screen width, breaking at spaces where it can.
    func wrap(head: [StyledLine.Span], body: [StyledLine.Span], indent: Int) -> [StyledLine] {
        let width = size.columns
        var lines: [StyledLine] = []
        var current = StyledLine(head)
        var used = indent
        let indentText = String(repeating: " ", count: min(indent, max(0, width / 2)))
        func newLine() {
            lines.append(current)
            current = StyledLine(indentText)
            used = DisplayWidth.of(indentText)
        }
        for span in body {
            for piece in span.text.splitKeepingSpaces() {
                if piece == "\n" {
                    newLine()
                    continue
                }
                let pieceWidth = DisplayWidth.of(piece)
                if used + pieceWidth > width, used > DisplayWidth.of(indentText) {
                    newLine()
                    if piece.allSatisfy({ $0 == " " }) { continue }
                }
                // A word longer than a whole row is cut character by character.
                var chunk = ""
                for character in piece {
                    let w = DisplayWidth.of(character)
                    if used + w > width {
                        current.append(chunk, span.style)
                        chunk = ""
                        newLine()
                    }
                    chunk.append(character)
                    used += w
                }
                current.append(chunk, span.style)
            }
        }
        lines.append(current)
        return lines
    }
}

extension String {
    /// Words, runs of spaces and newlines, in order (joined they give the string back).
    func splitKeepingSpaces() -> [String] {
        var pieces: [String] = []
        var current = ""
        var inSpaces = false
        for character in self {
            if character.isNewline {
                if !current.isEmpty { pieces.append(current) }
                pieces.append("\n")
                current = ""
                continue
            }
            let isSpace = character == " "
            if !current.isEmpty, isSpace != inSpaces {
                pieces.append(current)
                current = ""
            }
            inSpaces = isSpace
            current.append(character)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}
