/// How a run of text looks: a few SGR attributes and an 8-colour foreground.
public struct TextStyle: Sendable, Hashable {
    /// The eight basic terminal colours.
    public enum Color: UInt8, Sendable, Hashable {
        /// Black.
        case black = 0
        /// Red.
        case red
        /// Green.
        case green
        /// Yellow.
        case yellow
        /// Blue.
        case blue
        /// Magenta.
        case magenta
        /// Cyan.
        case cyan
        /// White.
        case white
    }

    /// Bold.
    public var bold = false
    /// Dim (faint).
    public var dim = false
    /// Reverse video (bars and the selection).
    public var reverse = false
    /// The foreground colour; nil keeps the terminal's default.
    public var color: Color?

    /// Creates a style.
    public init(bold: Bool = false, dim: Bool = false, reverse: Bool = false, color: Color? = nil) {
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.color = color
    }

    /// The terminal's default look.
    public static let plain = TextStyle()

    /// The SGR sequence that sets this style from a reset state.
    var sgr: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if reverse { codes.append("7") }
        if let color { codes.append(String(30 + Int(color.rawValue))) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
