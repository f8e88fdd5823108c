import ParleyWire

/// The client's disk state: the outbox of unsent messages and a cache of rooms and recent
/// messages, in one SQLite file. Owned by one ``ParleyClient``.
final class LocalStore {
    private let db: SQLiteDatabase
    /// How many recent messages per room the cache keeps.
    let messagesPerRoom: Int

    init(path: String, messagesPerRoom: Int = 200) throws(ParleyError) {
        db = try SQLiteDatabase(path: path)
        self.messagesPerRoom = messagesPerRoom
        try db.execute("""
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=FULL;
            CREATE TABLE IF NOT EXISTS outbox (
                position INTEGER PRIMARY KEY AUTOINCREMENT,
                client_id TEXT NOT NULL UNIQUE,
                room_id TEXT NOT NULL,
                parts TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                failure_code TEXT,
                failure_message TEXT);
            CREATE TABLE IF NOT EXISTS rooms (room_id TEXT PRIMARY KEY, summary TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS messages (
                room_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL,
                PRIMARY KEY (room_id, seq));
            """)
    }

    // MARK: Outbox

    func enqueue(_ message: PendingMessage) throws(ParleyError) {
        try db.query("INSERT OR IGNORE INTO outbox (client_id, room_id, parts, created_at) VALUES (?, ?, ?, ?)",
                     [.text(message.clientID), .text(message.roomID), .text(JSONWriter.string(.array(message.parts.map(\.json)))),
                      .integer(message.createdAt)])
    }

    /// Every entry, oldest first.
    func outbox() throws(ParleyError) -> [PendingMessage] {
        try db.query("SELECT client_id, room_id, parts, created_at, failure_code, failure_message FROM outbox ORDER BY position")
            .compactMap { row in
                guard let clientID = row[0].string, let roomID = row[1].string, let partsText = row[2].string,
                      let parts = try? MessagePart.list((try? JSONParser.parse(partsText))?.arrayValue ?? []) else { return nil }
                let state: PendingMessage.State = row[4].string.map { .failed(code: $0, message: row[5].string ?? "") } ?? .pending
                return PendingMessage(clientID: clientID, roomID: roomID, parts: parts, createdAt: row[3].int64 ?? 0, state: state)
            }
    }

    func markFailed(_ clientID: String, code: String, message: String) throws(ParleyError) {
        try db.query("UPDATE outbox SET failure_code = ?, failure_message = ? WHERE client_id = ?", [.text(code), .text(message), .text(clientID)])
    }

    func markPending(_ clientID: String) throws(ParleyError) {
        try db.query("UPDATE outbox SET failure_code = NULL, failure_message = NULL WHERE client_id = ?", [.text(clientID)])
    }

    func remove(_ clientID: String) throws(ParleyError) {
        try db.query("DELETE FROM outbox WHERE client_id = ?", [.text(clientID)])
    }

    // MARK: Cache

    func saveRooms(_ rooms: [RoomSummary]) throws(ParleyError) {
        try db.execute("BEGIN")
        do throws(ParleyError) {
            try db.query("DELETE FROM rooms")
            for room in rooms { try saveRoom(room) }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    func saveRoom(_ room: RoomSummary) throws(ParleyError) {
        try db.query("INSERT OR REPLACE INTO rooms (room_id, summary) VALUES (?, ?)", [.text(room.id), .text(JSONWriter.string(room.json))])
    }

    func removeRoom(_ roomID: String) throws(ParleyError) {
        try db.query("DELETE FROM rooms WHERE room_id = ?", [.text(roomID)])
        try db.query("DELETE FROM messages WHERE room_id = ?", [.text(roomID)])
    }

    func rooms() throws(ParleyError) -> [RoomSummary] {
        try db.query("SELECT summary FROM rooms").compactMap { row in
            row[0].string.flatMap { try? RoomSummary(json: try? JSONParser.parse($0)) }
        }.sorted { $0.room.lastActivityAt > $1.room.lastActivityAt }
    }

    func saveMessages(_ messages: [ChatMessage]) throws(ParleyError) {
        guard !messages.isEmpty else { return }
        try db.execute("BEGIN")
        do throws(ParleyError) {
            for message in messages {
                try db.query("INSERT OR REPLACE INTO messages (room_id, seq, message) VALUES (?, ?, ?)",
                             [.text(message.roomID), .integer(message.seq), .text(JSONWriter.string(message.json))])
            }
            for room in Set(messages.map(\.roomID)) {
                try db.query("""
                    DELETE FROM messages WHERE room_id = ?1 AND seq <= (
                        SELECT seq FROM messages WHERE room_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)
                    """, [.text(room), .integer(Int64(messagesPerRoom))])
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The cached recent messages of a room, ascending by seq.
    func messages(room: String) throws(ParleyError) -> [ChatMessage] {
        try db.query("SELECT message FROM messages WHERE room_id = ? ORDER BY seq", [.text(room)]).compactMap { row in
            row[0].string.flatMap { try? ChatMessage(json: try? JSONParser.parse($0)) }
        }
    }
}
