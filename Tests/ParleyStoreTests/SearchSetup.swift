@testable import ParleyStore

/// An engine for the search conformance tests, and on SQLite the paths a search can take, which
/// must all give the same answers: messages moved into the FTS5 index at every commit (`batch` 1)
/// or left in the queue (a test's few messages stay there); and words looked up alone first
/// (`wordsFirst` 1,000: every test's words) or intersected with the rooms' tokens in FTS5 (0).
struct SearchSetup: Sendable, CustomStringConvertible {
    let engine: TestEngine
    let batch: Int
    let wordsFirst: Int

    static var all: [SearchSetup] {
        TestEngine.available.flatMap { engine in
            engine == .sqlite
                ? [
                    SearchSetup(engine: engine, batch: 1, wordsFirst: 1_000),
                    SearchSetup(engine: engine, batch: 1, wordsFirst: 0),
                    SearchSetup(engine: engine, batch: StoreConfiguration.defaultSearchIndexBatch, wordsFirst: 1_000)
                ]
                : [SearchSetup(engine: engine, batch: 1, wordsFirst: 1_000)]
        }
    }

    var description: String { engine == .sqlite ? "sqlite, index batch \(batch), words first below \(wordsFirst)" : "\(engine)" }
}
