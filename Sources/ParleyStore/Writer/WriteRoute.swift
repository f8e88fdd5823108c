/// Which writer of the pool an operation goes to.
///
/// On PostgreSQL the store keeps several writer connections so writes use several server
/// processes. Writes to one room always go to the same writer (the room's partition), so they
/// commit in the order they were submitted and a retried client id meets its original on the
/// connection that stored it; writes that are not about one room (users, direct rooms,
/// documents, devices, attachments with their app-wide quota) go to the general writer, so they
/// stay in submission order among themselves. Whatever crosses partitions is kept right by
/// PostgreSQL's transactions and constraints, exactly as between two nodes sharing the database.
struct WriteRoute: Sendable, Hashable {
    /// The room's hash; nil for the general writer.
    let roomHash: UInt64?

    /// Writes that are not about a single room.
    static let general = WriteRoute(roomHash: nil)

    /// Writes to `room` of `app`.
    static func room(app: String, room: String) -> WriteRoute {
        WriteRoute(roomHash: Self.stableHash(app, room))
    }

    /// The writer of `count` this route goes to: the general one is 0, rooms spread over all.
    func writerIndex(of count: Int) -> Int {
        guard count > 1, let roomHash else { return 0 }
        return Int(roomHash % UInt64(count))
    }

    /// FNV-1a over both strings (with a separator), the same in every process (Swift's `Hasher` is seeded per process).
    private static func stableHash(_ app: String, _ room: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in app.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ 0xff) &* 0x100_0000_01b3  // 0xff never occurs in UTF-8
        for byte in room.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
