/// Turns terminal input bytes into keys: UTF-8 text, control bytes and the CSI/SS3 escape
/// sequences of arrows and editing keys. Sans-I/O: feed bytes as they arrive, in any split.
///
/// A lone ESC is ambiguous until the next byte (or a pause); ``flush()`` resolves it when
/// the caller saw no more input for a moment.
public struct InputDecoder: Sendable, Equatable {
    private enum Stage: Sendable, Equatable {
        case ground
        /// Saw ESC.
        case escape
        /// Saw `ESC [` and these parameter/intermediate bytes.
        case csi([UInt8])
        /// Saw `ESC O`.
        case ss3
        /// Inside a UTF-8 sequence: the bytes so far and how many in total.
        case utf8([UInt8], Int)
    }

    /// Longest CSI accepted; longer ones are dropped as garbage.
    static let maxSequenceLength = 32

    private var stage = Stage.ground

    /// Creates a decoder in its initial state.
    public init() {}

    /// Whether a lone ESC waits for the next byte (the caller should ``flush()`` after a pause).
    public var hasPendingEscape: Bool { stage == .escape }

    /// Decodes bytes; partial sequences are kept for the next call.
    public mutating func receive(_ bytes: some Sequence<UInt8>) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        for byte in bytes { step(byte, into: &keys) }
        return keys
    }

    /// Resolves what is pending after a pause: a lone ESC becomes ``TerminalKey/escape``; a
    /// truncated sequence is dropped.
    public mutating func flush() -> [TerminalKey] {
        defer { stage = .ground }
        switch stage {
        case .escape: return [.escape]
        case .utf8: return [.character("\u{FFFD}")]
        default: return []
        }
    }

    private mutating func step(_ byte: UInt8, into keys: inout [TerminalKey]) {
        switch stage {
        case .ground:
            ground(byte, into: &keys)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): stage = .csi([])
            case UInt8(ascii: "O"): stage = .ss3
            case 0x1B:
                keys.append(.escape)
            default:
                // Alt+key: the escape, then the key itself.
                keys.append(.escape)
                stage = .ground
                ground(byte, into: &keys)
            }
        case .csi(var body):
            if (0x40...0x7E).contains(byte) {
                keys.append(Self.csiKey(body, final: byte))
                stage = .ground
            } else if body.count >= Self.maxSequenceLength || byte < 0x20 {
                keys.append(.unknown)
                stage = .ground
            } else {
                body.append(byte)
                stage = .csi(body)
            }
        case .ss3:
            keys.append(Self.ss3Key(byte))
            stage = .ground
        case .utf8(var pending, let total):
            guard byte & 0xC0 == 0x80 else {
                // A broken sequence: replace it and read this byte afresh.
                keys.append(.character("\u{FFFD}"))
                stage = .ground
                ground(byte, into: &keys)
                return
            }
            pending.append(byte)
            if pending.count == total {
                keys.append(Self.character(pending))
                stage = .ground
            } else {
                stage = .utf8(pending, total)
            }
        }
    }

    private mutating func ground(_ byte: UInt8, into keys: inout [TerminalKey]) {
        switch byte {
        case 0x1B: stage = .escape
        case 0x0D, 0x0A: keys.append(.enter)
        case 0x09: keys.append(.tab)
        case 0x7F, 0x08: keys.append(.backspace)
        case 0x00..<0x20: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        case 0x20..<0x80: keys.append(.character(Character(Unicode.Scalar(byte))))
        case 0xC2...0xDF: stage = .utf8([byte], 2)
        case 0xE0...0xEF: stage = .utf8([byte], 3)
        case 0xF0...0xF4: stage = .utf8([byte], 4)
        default: keys.append(.character("\u{FFFD}"))
        }
    }

    private static func character(_ bytes: [UInt8]) -> TerminalKey {
        var decoded = String(decoding: bytes, as: UTF8.self)
        if decoded.isEmpty { decoded = "\u{FFFD}" }
        return .character(decoded.first ?? "\u{FFFD}")
    }

    private static func csiKey(_ body: [UInt8], final: UInt8) -> TerminalKey {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return .tab
        case UInt8(ascii: "~"):
            // `ESC [ n ~`, possibly with modifiers after a semicolon.
            let number = body.prefix { $0 != UInt8(ascii: ";") }
            switch String(decoding: number, as: UTF8.self) {
            case "1", "7": return .home
            case "3": return .delete
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return .unknown
            }
        default: return .unknown
        }
    }

    private static func ss3Key(_ byte: UInt8) -> TerminalKey {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "M"): return .enter
        default: return .unknown
        }
    }
}
