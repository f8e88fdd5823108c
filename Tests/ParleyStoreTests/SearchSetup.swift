@testable import ParleyStore

/// An engine for the search conformance tests, and on SQLite how many messages wait in the search
/// queue before they move into the FTS5 index: 1 moves every commit's messages, so searches find
/// them in the index; the default leaves a test's few messages in the queue, so searches find them
/// there. Both must give the same answers.
struct SearchSetup: Sendable, CustomStringConvertible {
    let engine: TestEngine
    let batch: Int

    static var all: [SearchSetup] {
        TestEngine.available.flatMap { engine in
            engine == .sqlite
                ? [SearchSetup(engine: engine, batch: 1), SearchSetup(engine: engine, batch: StoreConfiguration.defaultSearchIndexBatch)]
                : [SearchSetup(engine: engine, batch: 1)]
        }
    }

    var description: String { engine == .sqlite ? "sqlite, index batch \(batch)" : "\(engine)" }
}
