import ParleyKit

/// The `/search` overlay: one line per hit, room and sender first, the matching words in bold.
extension TerminalScreen {
    func searchLines(_ results: SearchResults) -> [StyledLine] {
        let count = results.hits.count
        var title = " Search “\(results.query)”: " + (count == 0 ? "no messages found" : "\(count)\(results.hasMore ? "+" : "") found")
        if results.hasMore { title += " (refine the words to see others)" }
        var lines = [StyledLine(title, TextStyle(bold: true))]
        for hit in results.hits {
            let room = state.roomList?.rows.first { $0.id == hit.message.roomID }?.title ?? hit.message.roomID
            var spans: [StyledLine.Span] = [.init("  \(room) · #\(hit.message.seq) \(hit.message.senderID): ", TextStyle(dim: true))]
            spans += Self.highlightedSpans(hit)
            lines.append(StyledLine(spans))
        }
        return lines
    }

    /// The message's text on one line, the highlighted ranges bold and yellow.
    static func highlightedSpans(_ hit: SearchHit) -> [StyledLine.Span] {
        let marked = TextStyle(bold: true, color: .yellow)
        var spans: [StyledLine.Span] = []
        for (index, part) in hit.message.parts.enumerated() {
            guard case .text(let text) = part else { continue }
            if !spans.isEmpty { spans.append(.init(" ")) }
            let units = Array(text.utf16)
            var position = 0
            for highlight in hit.highlights where highlight.part == index && highlight.start >= position && highlight.end <= units.count {
                spans.append(.init(flat(units[position..<highlight.start])))
                spans.append(.init(flat(units[highlight.start..<highlight.end]), marked))
                position = highlight.end
            }
            spans.append(.init(flat(units[position...])))
        }
        return spans.filter { !$0.text.isEmpty }
    }

    /// UTF-16 units back to text, line breaks as spaces (a hit takes one line).
    private static func flat(_ units: ArraySlice<UInt16>) -> String {
        String(decoding: units, as: UTF16.self).map { $0.isNewline ? " " : String($0) }.joined()
    }
}
