import ParleyKit
import ParleyUI

/// The shared-document editor: the text wrapped to the width with the others' cursors, a
/// line of who is editing, the live character count and the connection, and the way back.
///
/// ```
///  parley · alice · general · notes                        ● synced
/// Shopping list
/// - milk█
/// - bread▌            (bob's cursor, in reverse video)
///  bob editing
///  Esc back to the chat · edits are live
///  notes · 31 characters                                  ● synced
/// ```
extension TerminalScreen {
    /// One screen cell of the document: the character (or a blank after a line's end) and the
    /// scalar position it shows.
    struct DocumentCell {
        var text: String
        var position: Int
    }

    func documentFrame(_ document: DocumentEditorSnapshot) -> Frame {
        var lines = [documentTitle(document)]
        let rows = documentRows(document.text, width: max(1, size.columns - 1))
        let caret = locate(document.caret, in: rows)
        let bodyRows = self.bodyRows
        let first = max(0, caret.row - bodyRows + 1)
        let marks = Dictionary(
            document.others.compactMap { other in other.position.map { ($0, other.name) } },
            uniquingKeysWith: { first, _ in first })
        for row in rows.dropFirst(first).prefix(bodyRows) {
            lines.append(styled(row, marks: marks))
        }
        lines += Array(repeating: StyledLine(), count: max(0, bodyRows - (rows.count - first)))
        lines.append(StyledLine(" " + (document.othersText ?? "nobody else here"), TextStyle(dim: true)))
        if let notice = state.notice {
            lines.append(StyledLine(" " + notice, TextStyle(color: .yellow)))
        } else {
            lines.append(StyledLine(" Esc back to the chat · edits are live", TextStyle(dim: true)))
        }
        lines.append(documentCounter(document))
        return Frame(size: size, lines: lines, cursor: (row: 1 + caret.row - first, column: min(size.columns - 1, caret.column)))
    }

    private func documentTitle(_ document: DocumentEditorSnapshot) -> StyledLine {
        let bar = TextStyle(bold: true, reverse: true)
        let left = " parley · " + state.userName + " · " + (state.conversation?.title ?? "room") + " · " + document.name
        let right = document.connectionText + " "
        let gap = max(1, size.columns - DisplayWidth.of(left) - DisplayWidth.of(right))
        return StyledLine([.init(left, bar), .init(String(repeating: " ", count: gap), bar), .init(right, bar)], fillsWithStyle: true)
    }

    /// The live character count, as the tutorial's editor shows it.
    private func documentCounter(_ document: DocumentEditorSnapshot) -> StyledLine {
        let left = " " + document.name + " · " + document.counterText
        let right = document.connectionText + " "
        let gap = max(1, size.columns - DisplayWidth.of(left) - DisplayWidth.of(right))
        return StyledLine([
            .init(left, TextStyle(bold: true)), .init(String(repeating: " ", count: gap)), .init(right, TextStyle(dim: true))
        ])
    }

    /// The text as screen rows of cells: lines split at "\\n", wrapped at `width` columns.
    /// Every row ends with a blank cell for the position after its last character.
    func documentRows(_ text: String, width: Int) -> [[DocumentCell]] {
        var rows: [[DocumentCell]] = []
        var row: [DocumentCell] = []
        var used = 0
        var position = 0
        for character in text {
            let scalars = character.unicodeScalars.count
            if character == "\n" || character == "\r\n" {
                row.append(DocumentCell(text: " ", position: position))
                rows.append(row)
                row = []
                used = 0
            } else {
                let columns = DisplayWidth.of(character)
                if used + columns > width {
                    rows.append(row)
                    row = []
                    used = 0
                }
                row.append(DocumentCell(text: columns == 0 ? " " : String(character), position: position))
                used += max(1, columns)
            }
            position += scalars
        }
        row.append(DocumentCell(text: " ", position: position))
        rows.append(row)
        return rows
    }

    /// The row and column of scalar `position` (inside a character: that character's cell).
    func locate(_ position: Int, in rows: [[DocumentCell]]) -> (row: Int, column: Int) {
        for (index, row) in rows.enumerated() {
            var column = 0
            for (slot, cell) in row.enumerated() {
                let next = slot + 1 < row.count ? row[slot + 1].position : cell.position + 1
                if position >= cell.position && position < max(next, cell.position + 1) { return (index, column) }
                column += max(1, DisplayWidth.of(cell.text))
            }
        }
        let last = rows.count - 1
        return (last, rows[last].reduce(0) { $0 + max(1, DisplayWidth.of($1.text)) } - 1)
    }

    /// A row with the others' cursors marked in reverse video (who they are is on the line below).
    private func styled(_ row: [DocumentCell], marks: [Int: String]) -> StyledLine {
        var line = StyledLine()
        var plain = ""
        for cell in row {
            if marks[cell.position] != nil {
                if !plain.isEmpty { line.append(plain) }
                plain = ""
                line.append(cell.text, TextStyle(reverse: true, color: .magenta))
            } else {
                plain += cell.text
            }
        }
        if !plain.isEmpty { line.append(plain) }
        return line
    }
}
