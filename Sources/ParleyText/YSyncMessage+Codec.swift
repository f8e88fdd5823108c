/// Encoding and total decoding of y-protocols messages.
extension YSyncMessage {
    /// Decodes one complete message.
    /// - Throws: a ``YSyncError`` for anything but exactly one well-formed message.
    public static func decode(_ bytes: [UInt8]) throws(YSyncError) -> YSyncMessage {
        guard !bytes.isEmpty else { throw .empty }
        var reader = ByteReader(bytes)
        let message = try read(&reader)
        guard reader.isAtEnd else { throw .trailingBytes }
        return message
    }

    private static func read(_ reader: inout ByteReader) throws(YSyncError) -> YSyncMessage {
        let rawType = try reader.lib0VarUInt()
        guard let type = MessageType(rawValue: rawType) else { throw .unknownMessageType(rawType) }
        switch type {
        case .sync:
            let rawSync = try reader.lib0VarUInt()
            guard let syncType = SyncType(rawValue: rawSync) else { throw .unknownSyncType(rawSync) }
            let payload = try reader.lib0VarBytes()
            switch syncType {
            case .step1:
                do {
                    _ = try UpdateDecoder.decodeStateVector(payload)
                } catch {
                    throw .invalidStateVector
                }
                return .syncStep1(stateVector: payload)
            case .step2:
                return .syncStep2(update: payload)
            case .update:
                return .update(payload)
            }
        case .awareness:
            return .awareness(try AwarenessUpdate.decode(try reader.lib0VarBytes()))
        case .auth:
            let rawAuth = try reader.lib0VarUInt()
            guard rawAuth == authPermissionDenied else { throw .unknownAuthType(rawAuth) }
            return .permissionDenied(reason: try reader.lib0VarString())
        case .queryAwareness:
            return .queryAwareness
        }
    }

    /// Encodes the message in its canonical form.
    public func encode() -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + (documentUpdate?.count ?? 0))
        writer.writeVarUInt(messageType.rawValue)
        switch self {
        case .syncStep1(let stateVector):
            writer.writeVarUInt(SyncType.step1.rawValue)
            writer.writeVarString(stateVector)
        case .syncStep2(let update):
            writer.writeVarUInt(SyncType.step2.rawValue)
            writer.writeVarString(update)
        case .update(let update):
            writer.writeVarUInt(SyncType.update.rawValue)
            writer.writeVarString(update)
        case .awareness(let update):
            writer.writeVarString(update.encode())
        case .permissionDenied(let reason):
            writer.writeVarUInt(Self.authPermissionDenied)
            writer.writeVarString(Array(reason.utf8))
        case .queryAwareness:
            break
        }
        return writer.bytes
    }
}

extension ByteReader {
    /// Reads a lib0 varuint, mapping reader failures to ``YSyncError``.
    mutating func lib0VarUInt() throws(YSyncError) -> UInt64 {
        do {
            return try readVarUInt()
        } catch {
            throw YSyncError(reading: error)
        }
    }

    /// Reads a lib0 varuint that JavaScript peers can represent exactly (below 2^53).
    mutating func lib0SafeInteger() throws(YSyncError) -> UInt64 {
        let value = try lib0VarUInt()
        guard value <= UInt64(TextLimits.maxClock) else { throw .valueOutOfRange }
        return value
    }

    /// Reads a lib0 `varUint8Array`: a varuint length, then that many bytes.
    mutating func lib0VarBytes() throws(YSyncError) -> [UInt8] {
        let (start, end) = try lib0VarRange()
        return Array(bytes[start..<end])
    }

    /// Reads a lib0 `varString`: a varuint byte length, then UTF-8.
    mutating func lib0VarString() throws(YSyncError) -> String {
        let (start, end) = try lib0VarRange()
        guard UTF8Transcoder.isValid(bytes, from: start, to: end) else { throw .invalidUTF8 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Reads a length prefix and skips the bytes it announces; returns their range.
    private mutating func lib0VarRange() throws(YSyncError) -> (Int, Int) {
        let length = try lib0SafeInteger()
        guard length <= UInt64(remaining) else { throw .truncated }
        let start = offset
        do {
            try skip(Int(length))
        } catch {
            throw .truncated
        }
        return (start, start + Int(length))
    }
}
