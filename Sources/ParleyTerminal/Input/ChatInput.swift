/// What a line typed into the composer asks for: a message, or one of the slash commands.
public enum ChatInput: Sendable, Equatable {
    /// Text to send.
    case message(String)
    /// `/join ROOM`: join a public room.
    case join(roomID: String)
    /// `/create NAME [--public]`: create a room (private unless `--public`).
    case create(name: String, isPublic: Bool)
    /// `/dm USER`: open the direct room with a user.
    case directMessage(userID: String)
    /// `/leave`: leave the current room.
    case leave
    /// `/invite USER`: add a member to the current room.
    case invite(userID: String)
    /// `/image PATH`: upload an image and send it.
    case image(path: String)
    /// `/file PATH`: upload a file of any type and send it (readers see its name and size).
    case file(path: String)
    /// `/edit [SEQ] TEXT`: replace the text of a message (yours; the latest when no seq).
    case edit(seq: Int64?, text: String)
    /// `/delete [SEQ]`: delete a message (yours; the latest when no seq).
    case delete(seq: Int64?)
    /// `/react [SEQ] EMOJI`: react to a message (the latest when no seq).
    case react(seq: Int64?, emoji: String)
    /// `/thread [SEQ]`: open the thread of a message (the latest when no seq).
    case thread(seq: Int64?)
    /// `/back`: from a thread back to its room, from a room back to the list.
    case back
    /// `/doc NAME`: open the room's shared document called NAME (created on first use).
    case document(name: String)
    /// `/retry`: send failed messages again.
    case retry
    /// `/rooms`: back to the room list.
    case rooms
    /// `/help`: show the commands.
    case help
    /// `/quit`: leave the client.
    case quit
    /// `/block USER`: hide the user's messages everywhere (and no direct messages either way).
    case block(userID: String)
    /// `/unblock USER`: show the user's messages again.
    case unblock(userID: String)
    /// `/search [--here] TEXT`: find messages in the user's rooms (`--here`: the open room only);
    /// an empty query (`/search` alone) closes the results.
    case search(query: String, inRoom: Bool)
    /// `/mute`, `/ban`, `/kick`, `/slow`: moderation of the open room.
    case moderate(ModerationCommand)
    /// A command that was not understood, with what to tell the user.
    case invalid(String)

    /// The commands and their one-line help, as `/help` shows them.
    public static let helpLines: [String] =
        [
            "/create NAME [--public]   create a room and open it",
            "/join ROOM                join a public room",
            "/dm USER                  open a direct conversation",
            "/invite USER              add someone to this room",
            "/leave                    leave this room",
            "/image PATH  /file PATH   send an image, a file of any type",
            "/edit [SEQ] TEXT          edit your latest (or #SEQ) message",
            "/delete [SEQ]             delete your latest (or #SEQ) message",
            "/react [SEQ] EMOJI        react to the latest (or #SEQ) message",
            "/thread [SEQ]             open the thread of the latest (or #SEQ) message",
            "/doc NAME                 edit the room's shared document NAME with the others",
            "/search [--here] TEXT     find messages in your rooms (--here: this room); ↑↓ Enter open one; Esc closes",
            "/retry                    resend failed messages",
            "/block USER  /unblock USER  hide (or show again) someone's messages"
        ] + ModerationCommand.helpLines + [
            "/back  /rooms  (or Esc)   back from a thread to its room, to the room list",
            "/quit   (or Ctrl-C)       leave parley chat",
            "Keys: Up/Down select or scroll · PgUp/PgDn scroll · Tab switch view (after @ complete a name) · Enter open/send"
        ]

    /// Parses a composer line. Text not starting with `/` is a message; `//text` sends `/text`.
    public static func parse(_ line: String) -> ChatInput {
        guard line.hasPrefix("/") else { return .message(line) }
        if line.hasPrefix("//") { return .message(String(line.dropFirst())) }
        let body = line.dropFirst()
        let name = body.prefix { !$0.isWhitespace }.lowercased()
        let rest = body.dropFirst(name.count).drop { $0.isWhitespace }
        let argument = String(rest).trimmingTrailingSpaces()
        let words = argument.split(whereSeparator: \.isWhitespace).map(String.init)
        switch name {
        case "join":
            return words.count == 1 ? .join(roomID: words[0]) : .invalid("usage: /join ROOM")
        case "create":
            let isPublic = words.contains("--public")
            let title = words.filter { $0 != "--public" }.joined(separator: " ")
            return title.isEmpty ? .invalid("usage: /create NAME [--public]") : .create(name: title, isPublic: isPublic)
        case "dm", "direct":
            return words.count == 1 ? .directMessage(userID: words[0]) : .invalid("usage: /dm USER")
        case "leave":
            return .leave
        case "invite", "add":
            return words.count == 1 ? .invite(userID: words[0]) : .invalid("usage: /invite USER")
        case "image", "img":
            return argument.isEmpty ? .invalid("usage: /image PATH") : .image(path: argument)
        case "file", "attach":
            return argument.isEmpty ? .invalid("usage: /file PATH") : .file(path: argument)
        case "edit":
            let (seq, text) = splitSeq(argument)
            return text.isEmpty ? .invalid("usage: /edit [SEQ] TEXT") : .edit(seq: seq, text: text)
        case "delete", "del":
            if argument.isEmpty { return .delete(seq: nil) }
            let (seq, text) = splitSeq(argument)
            return seq != nil && text.isEmpty ? .delete(seq: seq) : .invalid("usage: /delete [SEQ]")
        case "react":
            let (seq, emoji) = splitSeq(argument)
            return emoji.isEmpty || emoji.contains(" ") ? .invalid("usage: /react [SEQ] EMOJI") : .react(seq: seq, emoji: emoji)
        case "thread", "t":
            if argument.isEmpty { return .thread(seq: nil) }
            let (seq, rest) = splitSeq(argument)
            return seq != nil && rest.isEmpty ? .thread(seq: seq) : .invalid("usage: /thread [SEQ]")
        case "doc", "document":
            return words.count == 1 ? .document(name: words[0]) : .invalid("usage: /doc NAME")
        case "block", "unblock":
            guard words.count == 1 else { return .invalid("usage: /\(name) USER") }
            let user = words[0].hasPrefix("@") ? String(words[0].dropFirst()) : words[0]
            guard !user.isEmpty else { return .invalid("usage: /\(name) USER") }
            return name == "block" ? .block(userID: user) : .unblock(userID: user)
        case "search", "find":
            let inRoom = words.first == "--here"
            let query = inRoom ? String(argument.dropFirst("--here".count).drop { $0.isWhitespace }) : argument
            return .search(query: query, inRoom: inRoom)
        case "retry": return .retry
        case "rooms": return .rooms
        case "back": return .back
        case "help", "?": return .help
        case "quit", "exit", "q": return .quit
        default:
            if let command = ModerationCommand.parse(name, words) { return command }
            return .invalid("unknown command /\(name) — /help lists the commands")
        }
    }

    /// A leading `#12` or `12` seq and the rest.
    private static func splitSeq(_ argument: String) -> (Int64?, String) {
        let first = argument.prefix { !$0.isWhitespace }
        let digits = first.hasPrefix("#") ? first.dropFirst() : first
        guard !digits.isEmpty, let seq = Int64(digits), seq > 0 else { return (nil, argument) }
        return (seq, String(argument.dropFirst(first.count).drop { $0.isWhitespace }))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
