/// Reads Yjs update format v1 for a generic document: every struct and content kind, any
/// parent. Everything is validated before anything is integrated, so a refused update
/// leaves the document unchanged.
enum YUpdateDecoder {
    static func decode(_ bytes: [UInt8]) throws(ParleyTextError) -> YDecodedUpdate {
        var reader = ByteReader(bytes)
        var update = YDecodedUpdate()
        let clientCount = try reader.readBoundedInt()
        guard clientCount <= reader.remaining else { throw .truncated }
        for _ in 0..<clientCount {
            try readClientStructs(&reader, into: &update)
        }
        update.deletes = try UpdateDecoder.readDeleteSet(&reader)
        guard reader.isAtEnd else { throw .trailingBytes }
        return update
    }

    private static func readClientStructs(_ reader: inout ByteReader, into update: inout YDecodedUpdate) throws(ParleyTextError) {
        let structCount = try reader.readBoundedInt()
        let client = try reader.readVarUInt()
        var clock = try reader.readBoundedInt()
        // Every struct takes at least two bytes, which bounds what a count can make us reserve.
        update.structs.reserveCapacity(update.structs.count + min(structCount, reader.remaining / 2))
        for _ in 0..<structCount {
            let info = try reader.readUInt8()
            switch info & 0x1F {
            case 0:
                let length = try readLength(&reader, clock: clock)
                update.structs.append(
                    YWireStruct(
                        kind: .gc, client: client, clock: clock, length: length,
                        origin: nil, rightOrigin: nil, parent: .none))
                clock += length
            case 10:
                // A skip marks clocks this update does not carry; later structs wait for them.
                clock += try readLength(&reader, clock: clock)
            default:
                let item = try readItem(&reader, info: info, client: client, clock: clock)
                update.structs.append(item)
                clock += item.length
            }
        }
    }

    private static func readLength(_ reader: inout ByteReader, clock: Int) throws(ParleyTextError) -> Int {
        let length = try reader.readBoundedInt()
        return try checkedLength(length, clock: clock)
    }

    private static func checkedLength(_ length: Int, clock: Int) throws(ParleyTextError) -> Int {
        guard length > 0, length <= TextLimits.maxStructLength else { throw .invalidLength }
        guard clock + length <= TextLimits.maxClock else { throw .clockOverflow }
        return length
    }

    private static func readID(_ reader: inout ByteReader) throws(ParleyTextError) -> ItemID {
        let client = try reader.readVarUInt()
        let clock = try reader.readBoundedInt()
        return ItemID(client: client, clock: clock)
    }

    private static func readItem(
        _ reader: inout ByteReader, info: UInt8, client: UInt64, clock: Int
    ) throws(ParleyTextError) -> YWireStruct {
        let ref = info & 0x1F
        guard let kind = YContentKind(rawValue: ref), kind != .gc else { throw .unknownContentRef(ref) }
        var item = YWireStruct(
            kind: kind, client: client, clock: clock, length: 1,
            origin: nil, rightOrigin: nil, parent: .none)
        if info & 0x80 != 0 { item.origin = try readID(&reader) }
        if info & 0x40 != 0 { item.rightOrigin = try readID(&reader) }
        if item.origin == nil && item.rightOrigin == nil {
            if try reader.readVarUInt() == 1 {
                item.parent = .root(try reader.readString())
            } else {
                item.parent = .item(try readID(&reader))
            }
            if info & 0x20 != 0 { item.parentSub = try reader.readString() }
        }
        // A struct can only refer to earlier clocks of its own client.
        for id in [item.origin, item.rightOrigin] {
            if let id, id.client == client, id.clock >= clock { throw .invalidOrigin }
        }
        if case .item(let id) = item.parent, id.client == client, id.clock >= clock { throw .invalidOrigin }
        try readContent(&reader, into: &item)
        return item
    }

    private static func readContent(_ reader: inout ByteReader, into item: inout YWireStruct) throws(ParleyTextError) {
        let start = reader.offset
        switch item.kind {
        case .gc:
            throw .unknownContentRef(0)
        case .deleted:
            item.length = try readLength(&reader, clock: item.clock)
            return
        case .string:
            let length = try reader.readVarString(into: &item.units)
            item.length = try checkedLength(length, clock: item.clock)
            return
        case .json, .any:
            let count = try reader.readBoundedInt()
            item.length = try checkedLength(count, clock: item.clock)
            guard count <= reader.remaining else { throw .truncated }
            let elements = reader.offset
            for _ in 0..<count {
                if item.kind == .json { try reader.skipVarString() } else { try reader.skipAny() }
            }
            item.payload = Array(reader.bytes[elements..<reader.offset])
            return
        case .binary:
            try reader.skip(try reader.readBoundedInt())
        case .embed:
            try reader.skipVarString()
        case .format:
            try reader.skipVarString()
            try reader.skipVarString()
        case .type:
            let typeRef = try reader.readVarUInt()
            guard typeRef <= 6, let typeKind = YTypeKind(rawValue: UInt8(typeRef)) else {
                throw .unknownTypeRef(UInt8(truncatingIfNeeded: min(typeRef, 255)))
            }
            if typeKind == .xmlElement || typeKind == .xmlHook { try reader.skipVarString() }
        case .doc:
            try reader.skipVarString()
            try reader.skipAny()
        }
        item.payload = Array(reader.bytes[start..<reader.offset])
    }
}
