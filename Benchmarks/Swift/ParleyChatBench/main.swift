// Chat benchmark: acknowledged durable sends through `parley serve`'s REST API from many
// concurrent senders (closed loop and fixed rates), history-page and room-list latency, and
// the raw ceiling of the same rows written straight into SQLite or PostgreSQL, and message
// search latency over a seeded store (SearchStore on either engine).
// Benchmarks/README.md describes the workload; Benchmarks/run_chat.sh runs it all.
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = LoadOptions.usage + "\n" + RawOptions.usage + "\n" + SearchOptions.usage

func fail(_ error: any Error) -> Never {
    if let error = error as? BenchError, error.code == "usage" {
        FileOutput.standardError("ParleyChatBench: \(error.message)\n\(usage)")
        exit(2)
    }
    FileOutput.standardError("ParleyChatBench: \(error)")
    exit(1)
}

signal(SIGPIPE, SIG_IGN)
FileOutput.raiseDescriptorLimit()

switch arguments.first {
case "load":
    do {
        let options = try LoadOptions(Array(arguments.dropFirst()))
        alarm(UInt32(options.maxSeconds))  // the whole run ends by itself
        FileOutput.standardOutput(try LoadRun(options: options).run().text)
    } catch {
        fail(error)
    }
case "raw":
    do {
        let options = try RawOptions(Array(arguments.dropFirst()))
        alarm(3_600)
        var result = ResultLine(label: options.label)
        result.append("engine", options.isPostgres ? "postgres" : "sqlite")
        result.append("txn_rows", String(options.transactionRows))
        for outcome in try await RawRun(options: options).run() {
            let key = "s\(outcome.statementRows)"
            FileOutput.standardOutput(
                "raw \(options.isPostgres ? "postgres" : "sqlite"), \(outcome.statementRows) row(s) per INSERT, "
                    + "\(options.transactionRows) rows per transaction: \(outcome.rows) rows in "
                    + "\(LatencySummary.fixed(outcome.seconds, decimals: 2)) s = \(LatencySummary.fixed(outcome.rowsPerSecond, decimals: 0)) rows/s "
                    + "(\(outcome.transactions) commits, \(LatencySummary.fixed(outcome.commitSeconds / Double(max(1, outcome.transactions)) * 1000, decimals: 2)) ms per COMMIT)"
            )
            result.append("\(key)_rows_per_s", LatencySummary.fixed(outcome.rowsPerSecond, decimals: 0))
            result.append(
                "\(key)_commit_ms", LatencySummary.fixed(outcome.commitSeconds / Double(max(1, outcome.transactions)) * 1000, decimals: 3))
        }
        FileOutput.standardOutput(result.text)
    } catch {
        fail(error)
    }
case "search":
    do {
        let options = try SearchOptions(Array(arguments.dropFirst()))
        alarm(7_200)
        FileOutput.standardOutput(try await SearchRun(options: options).run())
    } catch {
        fail(error)
    }
default:
    FileOutput.standardError(usage)
    exit(arguments.first == "--help" || arguments.first == "-h" ? 0 : 2)
}
