/// A database the raw mode writes message rows to, with nothing between the program and the
/// engine's C API: BEGIN, prepared multi-row INSERTs, one UPDATE per room, COMMIT.
protocol RawWriter: AnyObject {
    /// The engine's name for reports.
    var engine: String { get }
    /// Inserts the room rows the messages reference (untimed).
    func createRooms(app: String, _ ids: [String], now: Int64) throws(BenchError)
    func begin() throws(BenchError)
    /// One INSERT statement carrying all of `rows`.
    func insert(_ rows: ArraySlice<RawRow>) throws(BenchError)
    /// Moves each room's last seq and activity time, as the server does per message.
    func updateRoom(app: String, _ id: String, lastSeq: Int64, now: Int64) throws(BenchError)
    /// A durable commit.
    func commit() throws(BenchError)
}
