/// One screen row: runs of styled text. Built by the screen, fitted to the terminal's width.
public struct StyledLine: Sendable, Hashable {
    /// A run of text in one style.
    public struct Span: Sendable, Hashable {
        /// The text (no newlines).
        public var text: String
        /// Its style.
        public var style: TextStyle

        /// Creates a span.
        public init(_ text: String, _ style: TextStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// The runs, left to right.
    public var spans: [Span]
    /// Whether the row's blank remainder takes the last span's style (for reverse-video bars).
    public var fillsWithStyle: Bool

    /// Creates a line.
    public init(_ spans: [Span] = [], fillsWithStyle: Bool = false) {
        self.spans = spans
        self.fillsWithStyle = fillsWithStyle
    }

    /// A line of one span.
    public init(_ text: String, _ style: TextStyle = .plain) {
        self.init([Span(text, style)])
    }

    /// The text without styles.
    public var text: String { spans.map(\.text).joined() }

    /// The columns it takes.
    public var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// Appends a span.
    public mutating func append(_ text: String, _ style: TextStyle = .plain) {
        spans.append(Span(text, style))
    }

    /// Exactly `columns` wide: cut (a wide character never straddles the edge) or padded.
    public func fitted(to columns: Int) -> StyledLine {
        var out: [Span] = []
        var used = 0
        for span in spans where used < columns {
            var text = ""
            for character in span.text {
                let width = DisplayWidth.of(character)
                if used + width > columns { break }
                text.append(character)
                used += width
            }
            if !text.isEmpty { out.append(Span(text, span.style)) }
            if DisplayWidth.of(span.text) > DisplayWidth.of(text) { break }
        }
        if used < columns {
            let style = fillsWithStyle ? (spans.last?.style ?? .plain) : .plain
            out.append(Span(String(repeating: " ", count: columns - used), style))
        }
        return StyledLine(out, fillsWithStyle: fillsWithStyle)
    }

    /// The ANSI bytes that draw it from the row's first column (styles reset after).
    var ansi: [UInt8] {
        var out = ""
        for span in spans where !span.text.isEmpty {
            out += span.style.sgr
            out += span.text
        }
        out += "\u{1B}[0m"
        return Array(out.utf8)
    }
}
