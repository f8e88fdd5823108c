/// The shape of SQLite's FTS5 search index as its structure record describes it: how many
/// levels and segments it has. A search looks each room's word up in every segment, so the
/// count is what the writer's idle merge (``SearchIndexMerger``) keeps down.
///
/// FTS5 keeps the record as the row with id 10 of the index's `_data` table: a 4-byte cookie,
/// on newer versions a 4-byte marker `ff 00 00 01`, then the number of levels and the number of
/// segments as SQLite varints (7 bits a byte, most significant first, high bit set on every
/// byte but the last) before the per-level lists.
struct SearchIndexStructure: Sendable, Equatable {
    /// Levels of the index (some may be empty).
    var levels: Int
    /// Segments over all levels; 0 for an index that never held a row.
    var segments: Int

    /// The `_data` row id of the structure record.
    static let recordID = 10
    private static let versionTwoMarker: [UInt8] = [0xFF, 0x00, 0x00, 0x01]

    /// Decodes the head of a structure record; nil when it is too short or malformed.
    init?(record: [UInt8]) {
        var offset = 4
        guard record.count > offset else { return nil }
        if record.count >= 8, Array(record[4..<8]) == Self.versionTwoMarker { offset = 8 }
        guard let levels = Self.varint(record, at: &offset), let segments = Self.varint(record, at: &offset) else { return nil }
        self.levels = levels
        self.segments = segments
    }

    init(levels: Int, segments: Int) {
        self.levels = levels
        self.segments = segments
    }

    /// The varint at `offset`, moving `offset` past it (at most 4 bytes: the counts are small).
    private static func varint(_ bytes: [UInt8], at offset: inout Int) -> Int? {
        var value = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }
}
