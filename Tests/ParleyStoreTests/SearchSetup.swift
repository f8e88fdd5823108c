@testable import ParleyStore

/// An engine for the search conformance tests, and on SQLite the two places a message can be
/// found in, which must give the same answers: messages moved into the FTS5 index at every commit
/// (`batch` 1) or left in the queue (a test's few messages stay there).
struct SearchSetup: Sendable, CustomStringConvertible {
    let engine: TestEngine
    let batch: Int

    static var all: [SearchSetup] {
        TestEngine.available.flatMap { engine in
            engine == .sqlite
                ? [
                    SearchSetup(engine: engine, batch: 1),
                    SearchSetup(engine: engine, batch: StoreConfiguration.defaultSearchIndexBatch)
                ]
                : [SearchSetup(engine: engine, batch: 1)]
        }
    }

    var description: String { engine == .sqlite ? "sqlite, index batch \(batch)" : "\(engine)" }
}
