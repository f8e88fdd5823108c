/// The ids the benchmark gives its users and rooms, shared by setup, load and raw mode.
enum BenchNames {
    /// The dev app's id (`parley serve --dev`).
    static let appID = "1"
    /// The user who is a member of every room and whose room list is measured.
    static let reader = "bench-reader"

    /// Sender `index`'s user id.
    static func sender(_ index: Int) -> String { "bench-u\(index)" }

    /// Room `index`'s id; rooms below the send-room count get the traffic.
    static func room(_ index: Int) -> String { "bench-r\(index)" }

    /// The room sender `index` posts to.
    static func room(ofSender index: Int, rooms: Int) -> Int { index % rooms }

    /// `count` characters of message text (ASCII, no escaping needed).
    static func text(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ".utf8)
        return String(decoding: (0..<count).map { alphabet[($0 * 7) % alphabet.count] }, as: UTF8.self)
    }
}
