/// The rows of the load in order: row j is sent by sender j mod senders into that sender's room,
/// with the room's next seq and a unique client id.
struct RowSource {
    let app: String
    private let senders: Int
    private let rooms: Int
    private let parts: String
    private var counter = 0
    private var lastSeq: [Int64]
    private var touched: Set<Int> = []

    init(app: String, options: RawOptions) {
        self.app = app
        senders = options.senders
        rooms = options.rooms
        parts = #"[{"type":"text","text":""# + BenchNames.text(options.textBytes) + #""}]"#
        lastSeq = Array(repeating: 0, count: options.rooms)
    }

    mutating func next(_ count: Int, now: Int64) -> [RawRow] {
        touched.removeAll(keepingCapacity: true)
        var rows: [RawRow] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            let sender = counter % senders
            let room = BenchNames.room(ofSender: sender, rooms: rooms)
            lastSeq[room] += 1
            touched.insert(room)
            rows.append(
                RawRow(
                    app: app, room: BenchNames.room(room), seq: lastSeq[room], sender: BenchNames.sender(sender),
                    clientID: "raw-\(counter)", parts: parts, createdAt: now))
            counter += 1
        }
        return rows
    }

    /// The rooms the last batch wrote to, with their new last seq.
    func touchedRooms() -> [(Int, Int64)] { touched.sorted().map { ($0, lastSeq[$0]) } }
}
