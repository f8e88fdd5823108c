// Replays the automerge-paper editing trace (259,778 single-character edits, one
// transaction each) into ParleyText and prints: replay time, memory growth, encoded size of
// the final document and the time to load that encoding back. With a Python that has
// pycrdt, it also runs Benchmarks/text_replay_pycrdt.py in the same run and prints ratios.
//
//   swift build -c release --product ParleyTextBench
//   .build/release/ParleyTextBench [--runs N] [--no-pycrdt] [--write FILE]
//
// Environment: PARLEY_TRACES_DIR (default ../shared/data/editing-traces from the repo root),
// PARLEY_PYTHON (default /work/venv/bin/python, then python3).
import Foundation
import ParleyText

/// The trace as flat arrays, so the timed loop touches no JSON objects.
struct SequentialTrace {
    var positions: [Int] = []
    var deleteCounts: [Int] = []
    var inserts: [String] = []
    var endContent = ""

    static func load(from url: URL) throws -> SequentialTrace {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var trace = SequentialTrace()
        do {
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let txns = root["txns"] as? [[String: Any]]
            else {
                throw CocoaError(.fileReadCorruptFile)
            }
            trace.endContent = root["endContent"] as? String ?? ""
            for txn in txns {
                for patch in txn["patches"] as? [[Any]] ?? [] {
                    trace.positions.append((patch[0] as? NSNumber)?.intValue ?? 0)
                    trace.deleteCounts.append((patch[1] as? NSNumber)?.intValue ?? 0)
                    trace.inserts.append(patch[2] as? String ?? "")
                }
            }
        }
        return trace
    }
}

/// Resident-memory figures from /proc/self/status, in kilobytes.
enum Memory {
    static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// Returns freed heap pages to the system (glibc `malloc_trim`, looked up at run time), so
    /// that memory freed after parsing the trace is not silently reused by the replay.
    static func trimHeap() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// Resets the peak (VmHWM) to the current RSS, so a later peak belongs to what follows.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func replay(_ trace: SequentialTrace, takeUpdates: Bool) throws -> TextDocument {
    var doc = TextDocument(clientID: 1)
    for index in trace.positions.indices {
        try doc.splice(
            at: trace.positions[index], deleting: trace.deleteCounts[index],
            inserting: trace.inserts[index])
        if takeUpdates { _ = doc.takeLocalUpdate() }
    }
    return doc
}

let arguments = CommandLine.arguments
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 7
let environment = ProcessInfo.processInfo.environment
let tracesDirectory = environment["PARLEY_TRACES_DIR"] ?? "../shared/data/editing-traces"
let traceURL = URL(fileURLWithPath: tracesDirectory).appendingPathComponent("automerge-paper.json.gz")
guard FileManager.default.fileExists(atPath: traceURL.path) else {
    print("automerge-paper trace not found at \(traceURL.path): set PARLEY_TRACES_DIR")
    exit(2)
}

let trace = try SequentialTrace.load(from: traceURL)
print("trace: automerge-paper, \(trace.positions.count) edits")

// Memory: growth of the peak RSS over the RSS before the first replay.
Memory.trimHeap()
Memory.resetPeak()
let rssBefore = Memory.field("VmRSS")
let clock = ContinuousClock()
var replayTimes: [Double] = []
var finalDoc = TextDocument(clientID: 1)
for run in 0..<runs {
    let start = clock.now
    let doc = try replay(trace, takeUpdates: false)
    replayTimes.append(seconds(clock.now - start))
    if run == 0 {
        let peak = Memory.field("VmHWM")
        print(
            String(
                format: "memory growth (peak RSS over baseline): %.1f MB (items: %d)",
                Double(peak - rssBefore) / 1024, doc.itemCount))
        finalDoc = doc
    }
}
guard finalDoc.text == trace.endContent else {
    print("FAILED: replay does not give endContent")
    exit(1)
}
replayTimes.sort()
let replayBest = replayTimes[0]
print(
    String(
        format: "replay: best %.1f ms, median %.1f ms over %d runs (endContent matches)",
        replayBest * 1000, replayTimes[runs / 2] * 1000, runs))

var withUpdates: [Double] = []
for _ in 0..<max(1, runs / 2) {
    let start = clock.now
    _ = try replay(trace, takeUpdates: true)
    withUpdates.append(seconds(clock.now - start))
}
print(String(format: "replay + encode one update per edit: best %.1f ms", withUpdates.min()! * 1000))

let encoded = finalDoc.encodeStateAsUpdate()
print("encoded final document: \(encoded.count) bytes")
if let index = arguments.firstIndex(of: "--write"), index + 1 < arguments.count {
    _ = FileManager.default.createFile(atPath: arguments[index + 1], contents: Data(encoded))
}
var loadTimes: [Double] = []
for _ in 0..<runs {
    let start = clock.now
    var loaded = TextDocument(clientID: 2)
    try loaded.applyUpdate(encoded)
    loadTimes.append(seconds(clock.now - start))
    precondition(loaded.count == finalDoc.count)
}
print(String(format: "load (decode + integrate): best %.2f ms", loadTimes.min()! * 1000))

// The server replica (YDocument, any Yjs content): every edit's update applied as a server
// receives it, then the encoded state and the time to load it.
var editUpdates: [[UInt8]] = []
do {
    var doc = TextDocument(clientID: 1)
    for index in trace.positions.indices {
        try doc.splice(at: trace.positions[index], deleting: trace.deleteCounts[index], inserting: trace.inserts[index])
        if let update = doc.takeLocalUpdate() { editUpdates.append(update) }
    }
}
var replicaTimes: [Double] = []
var replica = YDocument()
for _ in 0..<max(1, runs / 2) {
    let start = clock.now
    var server = YDocument()
    for update in editUpdates { try server.applyUpdate(update) }
    replicaTimes.append(seconds(clock.now - start))
    replica = server
}
guard replica.text(root: "text") == trace.endContent else {
    print("FAILED: the server replica does not give endContent")
    exit(1)
}
let replicaEncoded = replica.encodeStateAsUpdate()
var replicaLoads: [Double] = []
for _ in 0..<runs {
    let start = clock.now
    var loaded = YDocument()
    try loaded.applyUpdate(replicaEncoded)
    replicaLoads.append(seconds(clock.now - start))
}
print(
    String(
        format: "server replica: %d updates applied in best %.1f ms; encoded %d bytes; load best %.2f ms",
        editUpdates.count, replicaTimes.min()! * 1000, replicaEncoded.count, replicaLoads.min()! * 1000))

// The same replay through pycrdt, for the ratios.
if !arguments.contains("--no-pycrdt") {
    let python =
        environment["PARLEY_PYTHON"]
        ?? (FileManager.default.fileExists(atPath: "/work/venv/bin/python") ? "/work/venv/bin/python" : "python3")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, "Benchmarks/text_replay_pycrdt.py", "--json", "--trace", traceURL.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do {
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 0,
            let result = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let pyReplay = result["replay_s"] as? Double, let pySize = result["encoded_bytes"] as? Int
        {
            print(
                String(
                    format: "pycrdt: replay %.0f ms, encoded %d bytes, load %.2f ms, memory growth %.1f MB",
                    pyReplay * 1000, pySize, (result["load_s"] as? Double ?? 0) * 1000,
                    result["memory_growth_mb"] as? Double ?? 0))
            print(
                String(
                    format: "ratio: ParleyText replay is %.0fx faster; encoded size %.1f%% of pycrdt's",
                    pyReplay / replayBest, 100 * Double(encoded.count) / Double(pySize)))
        } else {
            print("pycrdt comparison unavailable (exit \(process.terminationStatus))")
        }
    } catch {
        print("pycrdt comparison unavailable: \(error)")
    }
}
