/// Reads Yjs update format v1 and state vectors, validating everything before anything is
/// integrated, so that a rejected update leaves the document unchanged.
enum UpdateDecoder {
    /// Content refs of the Yjs format that this text document stores.
    private static let contentDeleted: UInt8 = 1
    private static let contentString: UInt8 = 4
    /// Content refs the Yjs format defines for other content (JSON, binary, embed, format,
    /// type, any, subdocument).
    private static let otherKnownContent: Set<UInt8> = [2, 3, 5, 6, 7, 8, 9]

    static func decodeUpdate(_ bytes: [UInt8], rootName: [UInt8]) throws(ParleyTextError) -> DecodedUpdate {
        var reader = ByteReader(bytes)
        var update = DecodedUpdate()
        let clientCount = try reader.readBoundedInt()
        for _ in 0..<clientCount {
            try readClientStructs(&reader, rootName: rootName, into: &update)
        }
        update.deletes = try readDeleteSet(&reader)
        guard reader.isAtEnd else { throw .trailingBytes }
        return update
    }

    private static func readClientStructs(
        _ reader: inout ByteReader, rootName: [UInt8], into update: inout DecodedUpdate
    ) throws(ParleyTextError) {
        let structCount = try reader.readBoundedInt()
        let client = try reader.readVarUInt()
        var clock = try reader.readBoundedInt()
        update.structs.reserveCapacity(update.structs.count + min(structCount, reader.remaining))
        for _ in 0..<structCount {
            let info = try reader.readUInt8()
            let ref = info & 0x1F
            switch ref {
            case 0:
                let length = try readStructLength(&reader, clock: clock)
                update.structs.append(
                    WireStruct(
                        kind: .gc, client: client, clock: clock, length: length,
                        origin: nil, rightOrigin: nil, textStart: 0))
                clock += length
            case 10:
                // A skip marks clocks this update does not carry; later structs wait for them.
                clock += try readStructLength(&reader, clock: clock)
            default:
                let item = try readItem(
                    &reader, info: info, client: client, clock: clock,
                    rootName: rootName, units: &update.units)
                update.structs.append(item)
                clock += item.length
            }
        }
    }

    private static func readStructLength(_ reader: inout ByteReader, clock: Int) throws(ParleyTextError) -> Int {
        let length = try reader.readBoundedInt()
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
        _ reader: inout ByteReader, info: UInt8, client: UInt64, clock: Int,
        rootName: [UInt8], units: inout [UInt16]
    ) throws(ParleyTextError) -> WireStruct {
        var origin: ItemID?
        var rightOrigin: ItemID?
        if info & 0x80 != 0 { origin = try readID(&reader) }
        if info & 0x40 != 0 { rightOrigin = try readID(&reader) }
        if origin == nil && rightOrigin == nil {
            try readParent(&reader, info: info, rootName: rootName)
        }
        for id in [origin, rightOrigin] {
            // A struct can only point at earlier clocks of its own client.
            if let id, id.client == client, id.clock >= clock { throw .invalidOrigin }
        }
        let ref = info & 0x1F
        var item = WireStruct(
            kind: .string, client: client, clock: clock, length: 0,
            origin: origin, rightOrigin: rightOrigin, textStart: units.count)
        switch ref {
        case contentDeleted:
            item.kind = .deleted
            item.length = try readStructLength(&reader, clock: clock)
        case contentString:
            let start = units.count
            let length = try reader.readVarString(into: &units)
            guard length > 0, length <= TextLimits.maxStructLength else { throw .invalidLength }
            guard clock + length <= TextLimits.maxClock else { throw .clockOverflow }
            item.textStart = start
            item.length = length
        default:
            if otherKnownContent.contains(ref) { throw .unsupportedContent(ref) }
            throw .unknownContentRef(ref)
        }
        return item
    }

    /// Reads the parent of a struct that has neither origin: it must be this document's root.
    private static func readParent(
        _ reader: inout ByteReader, info: UInt8, rootName: [UInt8]
    ) throws(ParleyTextError) {
        let namedRoot = try reader.readVarUInt() == 1
        if namedRoot {
            guard try reader.readVarStringEquals(rootName) else { throw .unsupportedParent }
        } else {
            _ = try readID(&reader)
            throw .unsupportedParent
        }
        // A parent key means a map entry, which a text root never holds.
        if info & 0x20 != 0 { throw .unsupportedParent }
    }

    static func readDeleteSet(_ reader: inout ByteReader) throws(ParleyTextError) -> [DeleteRange] {
        var ranges: [DeleteRange] = []
        let clientCount = try reader.readBoundedInt()
        for _ in 0..<clientCount {
            let client = try reader.readVarUInt()
            let rangeCount = try reader.readBoundedInt()
            ranges.reserveCapacity(ranges.count + min(rangeCount, reader.remaining))
            for _ in 0..<rangeCount {
                let clock = try reader.readBoundedInt()
                let length = try reader.readBoundedInt()
                guard clock + length <= TextLimits.maxClock else { throw .clockOverflow }
                if length > 0 {
                    ranges.append(DeleteRange(client: client, clock: clock, length: length))
                }
            }
        }
        return ranges
    }

    /// Reads a state vector: for each client, the next clock expected from it.
    static func decodeStateVector(_ bytes: [UInt8]) throws(ParleyTextError) -> [UInt64: Int] {
        var reader = ByteReader(bytes)
        var vector: [UInt64: Int] = [:]
        let count = try reader.readBoundedInt()
        for _ in 0..<count {
            let client = try reader.readVarUInt()
            let clock = try reader.readBoundedInt()
            vector[client] = max(vector[client] ?? 0, clock)
        }
        guard reader.isAtEnd else { throw .trailingBytes }
        return vector
    }
}
