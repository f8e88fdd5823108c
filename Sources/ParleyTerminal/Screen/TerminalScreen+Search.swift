import ParleyKit
import ParleyUI

/// Search results: a summary line, then each match as `#room YYYY-MM-DD HH:MM name: text` with
/// the matched words in reverse video, best first, the selected one marked `▸` in its gutter;
/// scrolled from the top.
extension TerminalScreen {
    /// How matched words look: like a mention of the user, so they stand out the same way.
    static let matchStyle = TextStyle(bold: true, reverse: true, color: .yellow)

    /// How the selected entry's gutter shows it.
    static let selectionMarker = StyledLine.Span("▸ ", TextStyle(bold: true, color: .yellow))

    func searchLines() -> [StyledLine] {
        let lines = searchLayout().lines
        // Scrolled from the top (the best results first): here `scrollBack` counts rows down.
        let start = min(max(0, state.scrollBack), max(0, lines.count - bodyRows))
        return Array(lines[start..<min(lines.count, start + bodyRows)])
    }

    /// How many lines the results take, before scrolling.
    var searchLineCount: Int { searchLayout().lines.count }

    /// The lines of selectable entry `index` (a result, or the "more results" row after them),
    /// before scrolling; nil when there is no such entry.
    func searchLines(ofEntry index: Int) -> Range<Int>? {
        let entries = searchLayout().entries
        return entries.indices.contains(index) ? entries[index] : nil
    }

    /// The lines, and where each selectable entry's lines are. Every entry has a two-column
    /// gutter that shows the selection.
    private func searchLayout() -> (lines: [StyledLine], entries: [Range<Int>]) {
        guard let search = state.search else { return ([StyledLine(" Searching…", TextStyle(dim: true))], []) }
        var lines = [searchSummary(search)]
        var entries: [Range<Int>] = []
        for (index, result) in search.results.enumerated() {
            let start = lines.count
            lines += resultLines(result, selected: state.selectedResult == index)
            entries.append(start..<lines.count)
        }
        if search.hasMore {
            let gutter = state.selectedResult == search.results.count ? Self.selectionMarker : StyledLine.Span("  ")
            entries.append(lines.count..<lines.count + 1)
            lines.append(StyledLine([gutter, .init("↓ more results: Enter", TextStyle(dim: true))]))
        }
        return (lines, entries)
    }

    private func searchSummary(_ search: SearchSnapshot) -> StyledLine {
        let quoted = "“" + search.query + "”"
        let text: String
        if search.query.isEmpty {
            text = " Type words to search for, then Enter"
        } else if search.isLoading, search.results.isEmpty {
            text = " Searching for " + quoted + "…"
        } else if search.error != nil, search.results.isEmpty {
            text = " No results for " + quoted
        } else if search.results.isEmpty {
            text = " No messages match " + quoted
        } else {
            let count = search.results.count
            text = " \(count)\(search.hasMore ? "+" : "") " + (count == 1 ? "result" : "results") + " for " + quoted
        }
        return StyledLine(text, TextStyle(bold: true, color: .cyan))
    }

    /// One result: the room, the day and time, the sender, then the text with its matches.
    private func resultLines(_ result: SearchResultRow, selected: Bool) -> [StyledLine] {
        let day = DayStamp(milliseconds: result.createdAt, utcOffsetSeconds: state.utcOffsetSeconds)
        let head: [StyledLine.Span] = [
            selected ? Self.selectionMarker : .init("  "),
            .init("#" + result.roomTitle + " ", TextStyle(reverse: selected, color: .cyan)),
            .init(day.description + " " + clock(result.createdAt) + " ", TextStyle(dim: true)),
            .init(result.senderName, TextStyle(bold: true, color: result.senderID == state.userID ? .cyan : .green)),
            .init(": ")
        ]
        let indent = head.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let body = result.segments.map { segment in
            StyledLine.Span(segment.text, segment.isMatch ? Self.matchStyle : .plain)
        }
        return wrap(head: head, body: body, indent: indent)
    }
}
