import ParleyWireCore

/// The client's disk state: the outbox of unsent messages and a cache of rooms and recent
/// messages, in one SQLite file, every row under the user it belongs to (several users, one
/// after the other or at once, may share a file without seeing each other's rows). Owned by
/// one ``ParleyClient``.
final class LocalStore {
    private let db: SQLiteDatabase
    /// How many recent messages per room the cache keeps.
    let messagesPerRoom: Int
    /// The schema this code writes (`PRAGMA user_version`).
    static let schemaVersion: Int64 = 1

    init(path: String, messagesPerRoom: Int = 200) throws(ParleyError) {
        db = try SQLiteDatabase(path: path)
        self.messagesPerRoom = messagesPerRoom
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;")
        try migrate()
    }

    /// Brings the file to ``schemaVersion``. Version 0 (ParleyKit before per-user stores) had
    /// an outbox without owners and a shared cache: the outbox gains a `user_id` column (its old
    /// rows stay unowned until ``adoptUnownedOutbox(user:)``), the cache is dropped (the server
    /// has it all).
    private func migrate() throws(ParleyError) {
        let version = try db.query("PRAGMA user_version").first?.first?.int64 ?? 0
        guard version < Self.schemaVersion else { return }
        try transaction { () throws(ParleyError) in
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS outbox (
                    position INTEGER PRIMARY KEY AUTOINCREMENT,
                    client_id TEXT NOT NULL UNIQUE,
                    room_id TEXT NOT NULL,
                    parts TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    failure_code TEXT,
                    failure_message TEXT);
                """)
            let columns = try db.query("PRAGMA table_info(outbox)").compactMap { $0.count > 1 ? $0[1].string : nil }
            if !columns.contains("user_id") { try db.execute("ALTER TABLE outbox ADD COLUMN user_id TEXT") }
            try db.execute(
                """
                CREATE INDEX IF NOT EXISTS outbox_user ON outbox (user_id, position);
                DROP TABLE IF EXISTS rooms;
                DROP TABLE IF EXISTS messages;
                CREATE TABLE rooms (user_id TEXT NOT NULL, room_id TEXT NOT NULL, summary TEXT NOT NULL,
                    PRIMARY KEY (user_id, room_id));
                CREATE TABLE messages (user_id TEXT NOT NULL, room_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL,
                    PRIMARY KEY (user_id, room_id, seq));
                PRAGMA user_version = \(Self.schemaVersion);
                """)
        }
    }

    /// Runs `body` in a transaction, rolled back when it throws.
    private func transaction(_ body: () throws(ParleyError) -> Void) throws(ParleyError) {
        try db.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try db.execute("COMMIT")
        } catch {
            do { try db.execute("ROLLBACK") } catch {
                // The connection is unusable if even ROLLBACK fails; the first error is the one to tell.
            }
            throw error
        }
    }

    // MARK: Outbox

    func enqueue(_ message: PendingMessage, user: String) throws(ParleyError) {
        try db.query(
            "INSERT OR IGNORE INTO outbox (client_id, user_id, room_id, parts, created_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(message.clientID), .text(user), .text(message.roomID),
                .text(JSONWriter.string(.array(message.parts.map(\.json)))), .integer(message.createdAt)
            ])
    }

    /// Gives the outbox entries written before entries had owners (schema 0, one user per
    /// file then) to `user`, the first user to open the file since.
    func adoptUnownedOutbox(user: String) throws(ParleyError) {
        try db.query("UPDATE outbox SET user_id = ? WHERE user_id IS NULL", [.text(user)])
    }

    /// The user's entries, oldest first.
    func outbox(user: String) throws(ParleyError) -> [PendingMessage] {
        try db.query(
            """
            SELECT client_id, room_id, parts, created_at, failure_code, failure_message FROM outbox
            WHERE user_id = ? ORDER BY position
            """, [.text(user)]
        ).map { row throws(ParleyError) in
            guard let clientID = row[0].string, let roomID = row[1].string, let partsText = row[2].string else {
                throw ParleyError(.storage, "outbox row with missing fields")
            }
            let parts: [MessagePart]
            do { parts = try MessagePart.list(try JSONParser.parse(partsText).arrayValue ?? []) } catch {
                throw ParleyError(.storage, "outbox entry \(clientID) has unreadable parts: \(error)")
            }
            let state: PendingMessage.State = row[4].string.map { .failed(code: $0, message: row[5].string ?? "") } ?? .pending
            return PendingMessage(clientID: clientID, roomID: roomID, parts: parts, createdAt: row[3].int64 ?? 0, state: state)
        }
    }

    func markFailed(_ clientID: String, code: String, message: String) throws(ParleyError) {
        try db.query(
            "UPDATE outbox SET failure_code = ?, failure_message = ? WHERE client_id = ?", [.text(code), .text(message), .text(clientID)])
    }

    func markPending(_ clientID: String) throws(ParleyError) {
        try db.query("UPDATE outbox SET failure_code = NULL, failure_message = NULL WHERE client_id = ?", [.text(clientID)])
    }

    func remove(_ clientID: String) throws(ParleyError) {
        try db.query("DELETE FROM outbox WHERE client_id = ?", [.text(clientID)])
    }

    // MARK: Cache

    func saveRooms(_ rooms: [RoomSummary], user: String) throws(ParleyError) {
        try transaction { () throws(ParleyError) in
            try db.query("DELETE FROM rooms WHERE user_id = ?", [.text(user)])
            for room in rooms { try saveRoom(room, user: user) }
        }
    }

    func saveRoom(_ room: RoomSummary, user: String) throws(ParleyError) {
        try db.query(
            "INSERT OR REPLACE INTO rooms (user_id, room_id, summary) VALUES (?, ?, ?)",
            [.text(user), .text(room.id), .text(JSONWriter.string(room.json))])
    }

    func removeRoom(_ roomID: String, user: String) throws(ParleyError) {
        try db.query("DELETE FROM rooms WHERE user_id = ? AND room_id = ?", [.text(user), .text(roomID)])
        try db.query("DELETE FROM messages WHERE user_id = ? AND room_id = ?", [.text(user), .text(roomID)])
    }

    func rooms(user: String) throws(ParleyError) -> [RoomSummary] {
        try db.query("SELECT summary FROM rooms WHERE user_id = ?", [.text(user)]).map { row throws(ParleyError) in
            try RoomSummary(json: try Self.parse(row[0], "cached room"))
        }.sorted { $0.room.lastActivityAt > $1.room.lastActivityAt }
    }

    func saveMessages(_ messages: [ChatMessage], user: String) throws(ParleyError) {
        guard !messages.isEmpty else { return }
        try transaction { () throws(ParleyError) in
            for message in messages {
                try db.query(
                    "INSERT OR REPLACE INTO messages (user_id, room_id, seq, message) VALUES (?, ?, ?, ?)",
                    [.text(user), .text(message.roomID), .integer(message.seq), .text(JSONWriter.string(message.json))])
            }
            for room in Set(messages.map(\.roomID)) {
                try db.query(
                    """
                    DELETE FROM messages WHERE user_id = ?1 AND room_id = ?2 AND seq <= (
                        SELECT seq FROM messages WHERE user_id = ?1 AND room_id = ?2 ORDER BY seq DESC LIMIT 1 OFFSET ?3)
                    """, [.text(user), .text(room), .integer(Int64(messagesPerRoom))])
            }
        }
    }

    /// The cached recent messages of a room, ascending by seq.
    func messages(room: String, user: String) throws(ParleyError) -> [ChatMessage] {
        try db.query("SELECT message FROM messages WHERE user_id = ? AND room_id = ? ORDER BY seq", [.text(user), .text(room)])
            .map { row throws(ParleyError) in try ChatMessage(json: try Self.parse(row[0], "cached message")) }
    }

    /// Deletes everything the store holds for `user`: outbox, rooms and messages.
    func deleteData(user: String) throws(ParleyError) {
        try transaction { () throws(ParleyError) in
            for table in ["outbox", "rooms", "messages"] {
                try db.query("DELETE FROM \(table) WHERE user_id = ?", [.text(user)])
            }
        }
    }

    private static func parse(_ value: SQLiteValue, _ what: String) throws(ParleyError) -> JSONValue {
        guard let text = value.string else { throw ParleyError(.storage, "\(what): not text") }
        do { return try JSONParser.parse(text) } catch { throw ParleyError(.storage, "\(what): not JSON") }
    }
}
