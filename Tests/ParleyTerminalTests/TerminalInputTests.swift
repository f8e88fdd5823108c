import Testing

@testable import ParleyTerminal

@Suite struct TerminalInputTests {
    @Test func decodesUTF8EvenWhenSplitAcrossReads() {
        var decoder = InputDecoder()
        let bytes = Array("hé👍".utf8)
        var keys: [TerminalKey] = []
        for byte in bytes { keys += decoder.receive([byte]) }
        #expect(keys == [.character("h"), .character("é"), .character("👍")])
    }

    @Test func decodesArrowsAndEditingKeysInBothEncodings() {
        var decoder = InputDecoder()
        let keys = decoder.receive(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}OD\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[1;5H\u{1B}[F\r\t\u{7F}".utf8))
        #expect(keys == [.up, .down, .right, .left, .delete, .pageUp, .pageDown, .home, .end, .enter, .tab, .backspace])
    }

    @Test func aLoneEscapeWaitsForAPause() {
        var decoder = InputDecoder()
        #expect(decoder.receive([0x1B]).isEmpty)
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPendingEscape)
        // A sequence split across reads is still one key.
        #expect(decoder.receive([0x1B]).isEmpty)
        #expect(decoder.receive(Array("[A".utf8)) == [.up])
        // Alt+x: the escape, then the key.
        #expect(decoder.receive([0x1B, UInt8(ascii: "x")]) == [.escape, .character("x")])
    }

    @Test func controlBytesBecomeChords() {
        var decoder = InputDecoder()
        #expect(decoder.receive([0x03, 0x01, 0x17]) == [.control("c"), .control("a"), .control("w")])
    }

    @Test func malformedInputNeverLeaksIntoText() {
        var decoder = InputDecoder()
        // A stray continuation byte, a truncated sequence before ASCII, an overlong CSI.
        #expect(decoder.receive([0x80]) == [.character("\u{FFFD}")])
        #expect(decoder.receive([0xE2, 0x82, UInt8(ascii: "a")]) == [.character("\u{FFFD}"), .character("a")])
        let overlong = [0x1B, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 40) + [UInt8(ascii: "A")]
        let keys = decoder.receive(overlong)
        #expect(keys.first == .unknown)
        #expect(!keys.contains(.up))
        #expect(decoder.receive([0x1B, UInt8(ascii: "["), UInt8(ascii: "9"), UInt8(ascii: "9"), UInt8(ascii: "~")]) == [.unknown])
        // A truncated multi-byte character at a pause is replaced, not dropped silently.
        _ = decoder.receive([0xF0, 0x9F])
        #expect(decoder.flush() == [.character("\u{FFFD}")])
    }

    @Test func lineEditorEditsAtTheCursor() {
        var editor = LineEditor("helo")
        editor.apply(.left)
        editor.apply(.character("l"))
        #expect(editor.text == "hello")
        editor.apply(.home)
        editor.apply(.backspace)
        #expect(editor.text == "hello")
        editor.apply(.delete)
        #expect(editor.text == "ello")
        editor.apply(.end)
        editor.apply(.character(" "))
        editor.apply(.character("w"))
        editor.apply(.control("w"))
        #expect(editor.text == "ello ")
        editor.apply(.control("u"))
        #expect(editor.isEmpty)
    }

    @Test func lineEditorScrollsSoTheCursorShows() {
        let editor = LineEditor("abcdefghij")
        let window = editor.window(width: 5)
        #expect(window.text == "ghij")
        #expect(window.cursorColumn == 4)
        let wide = LineEditor("日本語テキスト")
        let wideWindow = wide.window(width: 6)
        #expect(DisplayWidth.of(wideWindow.text) <= 6)
        #expect(wideWindow.cursorColumn < 6)
    }

    @Test func parsesCommands() {
        #expect(ChatInput.parse("hello") == .message("hello"))
        #expect(ChatInput.parse("//slash") == .message("/slash"))
        #expect(ChatInput.parse("/create Team Chat --public") == .create(name: "Team Chat", isPublic: true))
        #expect(ChatInput.parse("/create general") == .create(name: "general", isPublic: false))
        #expect(ChatInput.parse("/join lobby") == .join(roomID: "lobby"))
        #expect(ChatInput.parse("/block bob") == .block(userID: "bob"))
        #expect(ChatInput.parse("/file /tmp/my report.pdf") == .file(path: "/tmp/my report.pdf"))
        #expect(ChatInput.parse("/file") == .invalid("usage: /file PATH"))
        #expect(ChatInput.parse("/unblock @bob") == .unblock(userID: "bob"))
        #expect(ChatInput.parse("/block") == .invalid("usage: /block USER"))
        #expect(ChatInput.parse("/unblock a b") == .invalid("usage: /unblock USER"))
        #expect(ChatInput.parse("/dm bob") == .directMessage(userID: "bob"))
        #expect(ChatInput.parse("/invite bob") == .invite(userID: "bob"))
        #expect(ChatInput.parse("/leave") == .leave)
        #expect(ChatInput.parse("/image /tmp/a b.png") == .image(path: "/tmp/a b.png"))
        #expect(ChatInput.parse("/edit fixed text") == .edit(seq: nil, text: "fixed text"))
        #expect(ChatInput.parse("/edit #3 fixed") == .edit(seq: 3, text: "fixed"))
        #expect(ChatInput.parse("/delete") == .delete(seq: nil))
        #expect(ChatInput.parse("/delete 4") == .delete(seq: 4))
        #expect(ChatInput.parse("/react 👍") == .react(seq: nil, emoji: "👍"))
        #expect(ChatInput.parse("/react #2 🎉") == .react(seq: 2, emoji: "🎉"))
        #expect(ChatInput.parse("/QUIT") == .quit)
        #expect(ChatInput.parse("/help") == .help)
    }

    @Test func refusesMalformedCommandsWithUsage() {
        for line in ["/join", "/join a b", "/create", "/dm", "/invite", "/image", "/edit", "/edit #3", "/delete x", "/react", "/bogus"] {
            guard case .invalid(let message) = ChatInput.parse(line) else {
                Issue.record("\(line) should be refused")
                continue
            }
            #expect(message.contains("usage") || message.contains("unknown"))
        }
    }

    @Test func detectsImagesBySignature() {
        #expect(ImageType.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == "image/png")
        #expect(ImageType.detect([0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(ImageType.detect(Array("GIF89a...".utf8)) == "image/gif")
        #expect(ImageType.detect(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(ImageType.detect(Array("not an image".utf8)) == nil)
        #expect(ImageType.detect([]) == nil)
    }

    @Test func parsesOptions() throws {
        let dev = try ChatOptions.parse(["--dev", "--name", "alice", "--server", "http://127.0.0.1:7001"])
        #expect(dev.signIn == .development(name: "alice"))
        #expect(dev.serverURL == "http://127.0.0.1:7001")
        #expect(dev.appKey == "dev-key")
        let url = try ChatOptions.parse(["--token-url", "http://127.0.0.1:7000/token", "--name", "bob", "--app-key", "k"])
        #expect(url.signIn == .tokenURL("http://127.0.0.1:7000/token", userID: "bob"))
        #expect(try ChatOptions.parse(["--token", "t"]).signIn == .token("t"))
        #expect(throws: ChatOptionsError.self) { try ChatOptions.parse(["--dev"]) }
        #expect(throws: ChatOptionsError.self) { try ChatOptions.parse(["--dev", "--token", "t", "--name", "a"]) }
        #expect(throws: ChatOptionsError.self) { try ChatOptions.parse(["--name", "a"]) }
        #expect(throws: ChatOptionsError.self) { try ChatOptions.parse(["--dev", "--name"]) }
        #expect(throws: ChatOptionsError.self) { try ChatOptions.parse(["--dev", "--name", "a", "--server", "ftp://x"]) }
        #expect(throws: ChatOptionsError.self) { try ChatOptions.parse(["--frobnicate"]) }
        #expect(try ChatOptions.parse(["--help"]).showHelp)
    }
}
