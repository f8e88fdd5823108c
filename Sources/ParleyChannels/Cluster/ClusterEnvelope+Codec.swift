/// The bus's binary form: a version byte, the sender, then the message. Strings and byte
/// strings are a 4-byte big-endian length and the bytes; numbers are 8 bytes big-endian.
/// Decoding is bounded by the payload and refuses anything malformed with nil.
extension ClusterEnvelope {
    static let version: UInt8 = 1

    private enum Kind: UInt8 {
        case events = 1
        case share, terminate, notice
    }

    /// The envelope's bytes.
    public func encoded() -> [UInt8] {
        var out = ClusterWireWriter()
        out.byte(Self.version)
        out.string(node)
        out.u64(boot)
        switch message {
        case .events(let app, let events):
            out.byte(Kind.events.rawValue)
            out.string(app)
            out.u64(UInt64(events.count))
            for event in events {
                out.string(event.channel)
                out.string(event.event)
                out.bytes(event.frame)
                out.optional(event.excluding.map { Array($0.utf8) })
                out.optional(event.cacheData)
            }
        case .share(let update):
            out.byte(Kind.share.rawValue)
            out.u64(update.seq)
            out.byte(update.full ? 1 : 0)
            out.u64(UInt64(update.changes.count))
            for change in update.changes {
                switch change {
                case .count(let app, let channel, let count):
                    out.byte(0)
                    out.string(app)
                    out.string(channel)
                    out.u64(UInt64(max(0, count)))
                case .connections(let app, let count):
                    out.byte(2)
                    out.string(app)
                    out.string("")
                    out.u64(UInt64(max(0, count)))
                case .member(let app, let channel, let user, let info):
                    out.byte(1)
                    out.string(app)
                    out.string(channel)
                    out.string(user)
                    out.optional(info)
                }
            }
        case .terminate(let app, let user):
            out.byte(Kind.terminate.rawValue)
            out.string(app)
            out.string(user)
        case .notice(let topic, let payload):
            out.byte(Kind.notice.rawValue)
            out.string(topic)
            out.bytes(payload)
        }
        return out.bytes
    }

    /// Decodes an envelope; nil when the bytes are not one (another version, truncated, junk).
    public init?(decoding bytes: [UInt8]) {
        var r = ClusterWireReader(bytes)
        guard r.byte() == Self.version, let node = r.string(), let boot = r.u64(),
            let kindByte = r.byte(), let kind = Kind(rawValue: kindByte)
        else { return nil }
        let message: ClusterMessage
        switch kind {
        case .events:
            guard let app = r.string(), let count = r.count() else { return nil }
            var events: [ClusterEvent] = []
            for _ in 0..<count {
                guard let channel = r.string(), let name = r.string(), let frame = r.bytes(),
                    let excluding = r.optional(), let cacheData = r.optional()
                else { return nil }
                events.append(
                    ClusterEvent(
                        channel: channel, event: name, frame: frame,
                        excluding: excluding.map { String(decoding: $0, as: UTF8.self) }, cacheData: cacheData))
            }
            message = .events(app: app, events)
        case .share:
            guard let seq = r.u64(), let full = r.byte(), let count = r.count() else { return nil }
            var changes: [ClusterShareChange] = []
            for _ in 0..<count {
                guard let tag = r.byte(), let app = r.string(), let channel = r.string() else { return nil }
                if tag == 0 || tag == 2 {
                    guard let number = r.u64(), number <= UInt64(Int.max) else { return nil }
                    changes.append(tag == 0 ? .count(app: app, channel: channel, Int(number)) : .connections(app: app, Int(number)))
                } else {
                    guard tag == 1, let user = r.string(), let info = r.optional() else { return nil }
                    changes.append(.member(app: app, channel: channel, user: user, info: info))
                }
            }
            message = .share(ClusterShareUpdate(seq: seq, full: full == 1, changes: changes))
        case .terminate:
            guard let app = r.string(), let user = r.string() else { return nil }
            message = .terminate(app: app, user: user)
        case .notice:
            guard let topic = r.string(), let payload = r.bytes() else { return nil }
            message = .notice(topic: topic, payload: payload)
        }
        guard r.atEnd else { return nil }
        self.init(node: node, boot: boot, message: message)
    }
}

/// Appends the bus's fields.
struct ClusterWireWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func bytes(_ value: [UInt8]) {
        let count = UInt32(value.count)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { bytes(Array(value.utf8)) }

    /// A presence byte, then the bytes when present.
    mutating func optional(_ value: [UInt8]?) {
        guard let value else { return byte(0) }
        byte(1)
        bytes(value)
    }
}

/// Reads the bus's fields; every read returns nil past the end.
struct ClusterWireReader {
    private let data: [UInt8]
    private var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    var atEnd: Bool { offset == data.count }

    mutating func byte() -> UInt8? {
        guard offset < data.count else { return nil }
        defer { offset += 1 }
        return data[offset]
    }

    mutating func u64() -> UInt64? {
        guard data.count - offset >= 8 else { return nil }
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(data[offset + i]) }
        offset += 8
        return value
    }

    /// An element count, which can be no larger than the bytes left (each element takes at least one).
    mutating func count() -> Int? {
        guard let n = u64(), n <= UInt64(data.count - offset) else { return nil }
        return Int(n)
    }

    mutating func bytes() -> [UInt8]? {
        guard data.count - offset >= 4 else { return nil }
        var length = 0
        for i in 0..<4 { length = length << 8 | Int(data[offset + i]) }
        guard data.count - offset - 4 >= length else { return nil }
        defer { offset += 4 + length }
        return Array(data[(offset + 4)..<(offset + 4 + length)])
    }

    mutating func string() -> String? {
        bytes().flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// `.some(nil)` for an absent value, nil for malformed bytes.
    mutating func optional() -> [UInt8]?? {
        guard let flag = byte() else { return nil }
        if flag == 0 { return .some(nil) }
        guard flag == 1, let value = bytes() else { return nil }
        return .some(value)
    }
}
