/// A one-line text editor: characters and a cursor, edited by keys. Pure value.
public struct LineEditor: Sendable, Equatable {
    /// The characters.
    public private(set) var characters: [Character]
    /// The cursor, 0...count.
    public private(set) var cursor: Int

    /// Creates an editor holding `text`, the cursor at its end.
    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text.
    public var text: String { String(characters) }

    /// Whether it is empty.
    public var isEmpty: Bool { characters.isEmpty }

    /// Replaces the text; the cursor goes to the end.
    public mutating func set(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Applies an editing key; returns whether the text changed.
    @discardableResult
    public mutating func apply(_ key: TerminalKey) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
            return true
        case .backspace:
            guard cursor > 0 else { return false }
            characters.remove(at: cursor - 1)
            cursor -= 1
            return true
        case .delete, .control("d"):
            guard cursor < characters.count else { return false }
            characters.remove(at: cursor)
            return true
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            guard cursor > 0 else { return false }
            characters.removeSubrange(0..<cursor)
            cursor = 0
            return true
        case .control("k"):
            guard cursor < characters.count else { return false }
            characters.removeSubrange(cursor...)
            return true
        case .control("w"):
            return deleteWordBackwards()
        default:
            break
        }
        return false
    }

    private mutating func deleteWordBackwards() -> Bool {
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        guard start < cursor else { return false }
        characters.removeSubrange(start..<cursor)
        cursor = start
        return true
    }

    /// The visible part for a field `width` columns wide, scrolled so the cursor shows, and
    /// the cursor's column within it.
    public func window(width: Int) -> (text: String, cursorColumn: Int) {
        let width = max(1, width)
        var start = 0
        var before = DisplayWidth.of(String(characters[..<cursor]))
        while before >= width, start < cursor {
            before -= DisplayWidth.of(characters[start])
            start += 1
        }
        var text = ""
        var used = 0
        for character in characters[start...] {
            let w = DisplayWidth.of(character)
            if used + w > width { break }
            text.append(character)
            used += w
        }
        return (text, before)
    }
}
