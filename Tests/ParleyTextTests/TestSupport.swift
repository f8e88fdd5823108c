import Foundation
import Testing

@testable import ParleyText

/// Hand-assembly of lib0/Yjs v1 bytes for tests that need updates no replica would write.
struct RawUpdate {
    var bytes: [UInt8] = []

    mutating func varuint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ text: String) {
        varuint(UInt64(text.utf8.count))
        bytes += Array(text.utf8)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }
}

/// Two replicas exchange all their pending local edits.
func sync(_ a: inout TextDocument, _ b: inout TextDocument) throws {
    let fromA = a.takeLocalUpdate()
    let fromB = b.takeLocalUpdate()
    if let fromA { try b.applyUpdate(fromA) }
    if let fromB { try a.applyUpdate(fromB) }
}

/// Loads the editing traces from `PARLEY_TRACES_DIR` or `../shared/data/editing-traces`
/// relative to the repository root.
enum TraceFixture {
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["PARLEY_TRACES_DIR"] {
            return URL(fileURLWithPath: path)
        }
        let repoRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repoRoot.appendingPathComponent("../shared/data/editing-traces").standardizedFileURL
    }

    static func url(_ name: String) -> URL {
        directory.appendingPathComponent("\(name).json.gz")
    }

    static func available(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url(name).path)
    }

    static func absentMessage(_ name: String) -> Comment {
        Comment(rawValue: "editing trace \(url(name).path) not found: set PARLEY_TRACES_DIR to the editing-traces folder")
    }

    /// The trace's JSON object, decompressed with `gzip -dc`.
    static func load(_ name: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", url(name).path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return object
    }

    /// One patch: at `position` delete `deleteCount` scalars, then insert `text`.
    struct Patch {
        var position: Int
        var deleteCount: Int
        var text: String
    }

    static func patches(_ txn: [String: Any]) -> [Patch] {
        (txn["patches"] as? [[Any]] ?? []).map { patch in
            Patch(
                position: (patch[0] as? NSNumber)?.intValue ?? 0,
                deleteCount: (patch[1] as? NSNumber)?.intValue ?? 0,
                text: patch[2] as? String ?? "")
        }
    }
}

/// The pending local update of `doc`, which must exist.
func take(_ doc: inout TextDocument, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let update = doc.takeLocalUpdate()
    return try #require(update, sourceLocation: sourceLocation)
}
