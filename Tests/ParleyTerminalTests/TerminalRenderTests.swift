import Testing

@testable import ParleyTerminal

@Suite struct TerminalRenderTests {
    @Test func measuresWideAndZeroWidthCharacters() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("👍") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("\u{1B}") == 0)
    }

    @Test func fitsLinesToTheWidthWithoutSplittingWideCharacters() {
        let line = StyledLine([.init("ab"), .init("日本語", TextStyle(bold: true))]).fitted(to: 5)
        #expect(line.text == "ab日 ")
        #expect(line.width == 5)
        #expect(StyledLine("x").fitted(to: 3).text == "x  ")
    }

    @Test func firstFrameDrawsEverythingThenOnlyChangedRows() {
        let size = TerminalSize(rows: 3, columns: 10)
        var writer = FrameWriter()
        let first = String(
            decoding: writer.render(
                Frame(
                    size: size, lines: [StyledLine("one"), StyledLine("two"), StyledLine("three")],
                    cursor: (row: 2, column: 1))), as: UTF8.self)
        #expect(first.contains("\u{1B}[2J"))
        #expect(first.contains("\u{1B}[1;1H") && first.contains("\u{1B}[2;1H") && first.contains("\u{1B}[3;1H"))
        #expect(first.hasSuffix("\u{1B}[3;2H\u{1B}[?25h"))

        let second = String(
            decoding: writer.render(
                Frame(
                    size: size, lines: [StyledLine("one"), StyledLine("TWO"), StyledLine("three")],
                    cursor: (row: 2, column: 1))), as: UTF8.self)
        #expect(!second.contains("\u{1B}[2J"))
        #expect(second.contains("\u{1B}[2;1H"))
        #expect(second.contains("TWO"))
        #expect(!second.contains("\u{1B}[1;1H"))
        #expect(!second.contains("three"))

        // The same frame again writes no row at all.
        let same = String(
            decoding: writer.render(
                Frame(
                    size: size, lines: [StyledLine("one"), StyledLine("TWO"), StyledLine("three")],
                    cursor: nil)), as: UTF8.self)
        #expect(!same.contains("one") && !same.contains("TWO"))
        #expect(!same.contains("?25h"))
    }

    @Test func aResizeRedrawsInFull() {
        var writer = FrameWriter()
        _ = writer.render(Frame(size: TerminalSize(rows: 2, columns: 10), lines: [StyledLine("a"), StyledLine("b")], cursor: nil))
        let resized = String(
            decoding: writer.render(
                Frame(
                    size: TerminalSize(rows: 3, columns: 12), lines: [StyledLine("a"), StyledLine("b")],
                    cursor: nil)), as: UTF8.self)
        #expect(resized.contains("\u{1B}[2J"))
        #expect(resized.contains("\u{1B}[1;1H") && resized.contains("\u{1B}[3;1H"))
        writer.invalidate()
        let again = String(decoding: writer.render(Frame(size: TerminalSize(rows: 3, columns: 12), lines: [], cursor: nil)), as: UTF8.self)
        #expect(again.contains("\u{1B}[2J"))
    }

    @Test func framesArePaddedAndCutToTheSize() {
        let frame = Frame(
            size: TerminalSize(rows: 2, columns: 4), lines: [StyledLine("abcdef"), StyledLine("x"), StyledLine("dropped")],
            cursor: nil)
        #expect(frame.lines.count == 2)
        #expect(frame.lines.allSatisfy { $0.width == 4 })
        #expect(frame.text == "abcd\nx")
    }
}
