// The map-and-array workload: 100,000 random map sets, array inserts and array deletes made
// by three pycrdt replicas (Benchmarks/map_array_pycrdt.py --generate), one update each,
// applied in relay order to ParleyText's generic replica (the server's YDocument) and, in the
// same run, to a fresh pycrdt Doc; prints both times and the ratio.
//
//   swift build -c release --product ParleyDocBench
//   .build/release/ParleyDocBench [--runs N] [--ops N] [--seed N] [--no-pycrdt]
//
// Run from the repository root. Environment: PARLEY_PYTHON (default /work/venv/bin/python,
// then python3), which needs pycrdt (it also generates the workload).
import Foundation
import ParleyText

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return Int(arguments[index + 1]) ?? fallback
}
let runs = option("--runs", 5)
let ops = option("--ops", 100_000)
let seed = option("--seed", 1)
let environment = ProcessInfo.processInfo.environment
let python =
    environment["PARLEY_PYTHON"]
    ?? (FileManager.default.fileExists(atPath: "/work/venv/bin/python") ? "/work/venv/bin/python" : "python3")

/// Runs the pycrdt side with `arguments`; its standard output.
func runPython(_ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, "Benchmarks/map_array_pycrdt.py"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    return data
}

let workload = FileManager.default.temporaryDirectory.appendingPathComponent("parley-map-array-\(ops)-\(seed).bin")
if !FileManager.default.fileExists(atPath: workload.path) {
    print("generating the workload with pycrdt (\(ops) edits, seed \(seed))…")
    _ = try runPython(["--generate", workload.path, "--ops", String(ops), "--seed", String(seed)])
}
let data = [UInt8](try Data(contentsOf: workload))
var updates: [[UInt8]] = []
var offset = 0
while offset + 4 <= data.count {
    let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
    updates.append(Array(data[(offset + 4)..<(offset + 4 + length)]))
    offset += 4 + length
}
let totalBytes = updates.reduce(0) { $0 + $1.count }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

var times: [Double] = []
var final = YDocument()
let clock = ContinuousClock()
for _ in 0..<runs {
    var document = YDocument()
    let elapsed = try clock.measure {
        for update in updates { try document.applyUpdate(update) }
    }
    times.append(seconds(elapsed))
    final = document
}
times.sort()
let best = times[0], median = times[times.count / 2]
let encoded = final.encodeStateAsUpdate()
var loaded = YDocument()
let loadTime = seconds(try clock.measure { try loaded.applyUpdate(encoded) })
let mapKeys: Int
if case .object(let entries)? = final.value(root: "map") { mapKeys = entries.count } else { mapKeys = 0 }
let arrayLength = final.elementCount(ofArray: "array")
print("workload: \(updates.count) updates (\(totalBytes) bytes) from \(ops) edits")
print(
    String(
        format:
            "Parley YDocument: apply best %.1f ms, median %.1f ms (%d runs); %d map keys, %d array elements; encoded %d bytes, load %.2f ms",
        best * 1000, median * 1000, runs, mapKeys, arrayLength, encoded.count, loadTime * 1000))

if !arguments.contains("--no-pycrdt") {
    do {
        let output = try runPython(["--apply", workload.path, "--runs", String(min(runs, 3))])
        if let result = try JSONSerialization.jsonObject(with: output) as? [String: Any],
            let pyBest = result["best_ms"] as? Double, let pyMedian = result["median_ms"] as? Double
        {
            print(
                String(
                    format: "pycrdt: apply best %.1f ms, median %.1f ms; %d map keys, %d array elements; encoded %d bytes",
                    pyBest, pyMedian, result["map_keys"] as? Int ?? -1, result["array_length"] as? Int ?? -1,
                    result["encoded_bytes"] as? Int ?? -1))
            print(
                String(
                    format: "ratio: Parley applies the workload %.1fx faster (best), %.1fx (median)",
                    pyBest / (best * 1000), pyMedian / (median * 1000)))
            if result["map_keys"] as? Int != mapKeys || result["array_length"] as? Int != arrayLength {
                print("WARNING: the final sizes differ from pycrdt's")
            }
        }
    } catch {
        print("pycrdt comparison unavailable: \(error)")
    }
}
