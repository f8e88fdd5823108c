import ParleyKit
import ParleyUI

/// The room list: a row per room with presence, unread badge, time and preview.
extension TerminalScreen {
    func roomListLines() -> [StyledLine] {
        guard let list = state.roomList else { return [StyledLine(" Loading rooms…", TextStyle(dim: true))] }
        guard !list.rows.isEmpty else {
            return [StyledLine(" No rooms yet — /create NAME, /join ROOM or /dm USER to start.", TextStyle(dim: true))]
        }
        let selected = min(max(0, state.selectedRow), list.rows.count - 1)
        // Keep the selection in view.
        let first = max(0, selected - bodyRows + 1)
        return list.rows[first...].prefix(bodyRows).enumerated().map { offset, row in
            roomLine(row, isSelected: first + offset == selected)
        }
    }

    private func roomLine(_ row: RoomRow, isSelected: Bool) -> StyledLine {
        let base = isSelected ? TextStyle(reverse: true) : .plain
        func styled(_ style: TextStyle) -> TextStyle {
            var style = style
            style.reverse = isSelected
            return style
        }
        var line = StyledLine([], fillsWithStyle: isSelected)
        line.append(isSelected ? " › " : "   ", base)
        switch row.partnerOnline {
        case true?: line.append("● ", styled(TextStyle(color: .green)))
        case false?: line.append("○ ", styled(TextStyle(dim: true)))
        case nil: line.append(row.kind == .direct ? "@ " : "# ", styled(TextStyle(dim: true)))
        }
        line.append(Self.padded(row.title, to: 20), styled(TextStyle(bold: row.unreadCount > 0)))
        line.append(
            row.unreadCount > 0 ? Self.padded(" (\(row.unreadCount))", to: 7) : String(repeating: " ", count: 7),
            styled(TextStyle(bold: true, color: .yellow)))
        if row.lastActivityAt > 0 { line.append(clock(row.lastActivityAt) + "  ", styled(TextStyle(dim: true))) }
        if let preview = row.preview { line.append(preview.replacingNewlines(), styled(TextStyle(dim: !isSelected))) }
        return line
    }

    /// `text` in exactly `columns` (a column left blank as a gap), cut with `…` when longer.
    static func padded(_ text: String, to columns: Int) -> String {
        var out = text
        if DisplayWidth.of(text) > columns - 1 {
            out = ""
            var used = 0
            for character in text {
                let width = DisplayWidth.of(character)
                if used + width > columns - 2 { break }
                out.append(character)
                used += width
            }
            out += "…"
        }
        return out + String(repeating: " ", count: max(0, columns - DisplayWidth.of(out)))
    }

    /// `HH:MM` of a timestamp in the screen's UTC offset.
    func clock(_ milliseconds: Int64) -> String {
        let seconds = Int(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000) + state.utcOffsetSeconds
        let ofDay = ((seconds % 86_400) + 86_400) % 86_400
        let hours = ofDay / 3600, minutes = ofDay % 3600 / 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}

extension String {
    func replacingNewlines() -> String { String(map { $0.isNewline ? " " : $0 }) }
}
