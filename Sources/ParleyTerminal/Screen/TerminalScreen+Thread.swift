import ParleyKit
import ParleyUI

/// A thread: its root message, a rule with the reply count, then the replies, newest at the
/// bottom (scrolled like the conversation).
extension TerminalScreen {
    func threadLines() -> [StyledLine] {
        guard let thread = state.thread, let root = thread.root else {
            return [StyledLine(" " + (state.thread?.notice ?? "Opening the thread…"), TextStyle(dim: true))]
        }
        var lines = messageLines(root)
        let count = root.replyCount
        lines.append(rule(" \(count) " + (count == 1 ? "reply" : "replies") + " "))
        if thread.hasOlder { lines.append(StyledLine(" ↑ older replies", TextStyle(dim: true))) }
        for reply in thread.replies { lines += messageLines(reply) }
        if thread.replies.isEmpty { lines.append(StyledLine(" No replies yet — write the first.", TextStyle(dim: true))) }
        let rows = bodyRows
        let scroll = min(max(0, state.scrollBack), max(0, lines.count - rows))
        let end = lines.count - scroll
        return Array(lines[max(0, end - rows)..<end])
    }

    private func rule(_ label: String) -> StyledLine {
        let side = max(2, (size.columns - DisplayWidth.of(label)) / 2)
        let line = String(repeating: "─", count: side)
        return StyledLine(line + label + line, TextStyle(color: .cyan))
    }
}
