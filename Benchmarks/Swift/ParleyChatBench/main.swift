// Chat benchmark: acknowledged durable sends through `parley serve`'s REST API from many
// concurrent senders (closed loop and fixed rates), history-page and room-list latency, and
// the raw ceiling of the same rows written straight into SQLite or PostgreSQL, and message
// search latency over a loaded store.
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
        let outcome = try await SearchRun(options: options).run()
        var result = ResultLine(label: options.label)
        result.append("engine", options.isPostgres ? "postgres" : "sqlite")
        result.append("messages", String(options.messages))
        result.append("rooms", String(options.rooms))
        result.append("member_rooms", String(options.memberRooms))
        result.append("load_s", LatencySummary.fixed(outcome.loadSeconds, decimals: 1))
        FileOutput.standardOutput(
            "search \(options.isPostgres ? "postgres" : "sqlite"): \(options.messages) messages in \(options.rooms) rooms loaded in "
                + "\(LatencySummary.fixed(outcome.loadSeconds, decimals: 1)) s; a member of \(options.memberRooms) rooms, "
                + "\(LatencySummary.fixed(outcome.meanHits, decimals: 1)) hits per search on average")
        for (kind, summary) in outcome.byKind {
            FileOutput.standardOutput("  \(kind.rawValue): \(summary.text)")
            result.append(summary.fields(kind.rawValue))
        }
        FileOutput.standardOutput("  all: \(outcome.overall.text)")
        result.append(outcome.overall.fields("all"))
        if let rates = outcome.sendsPerSecond {
            FileOutput.standardOutput(
                "  durable sends/s: \(LatencySummary.fixed(rates.indexed, decimals: 0)) with the index, "
                    + "\(LatencySummary.fixed(rates.plain, decimals: 0)) without (\(LatencySummary.fixed(rates.indexed / rates.plain * 100, decimals: 1)) %)"
            )
            result.append("sends_indexed_per_s", LatencySummary.fixed(rates.indexed, decimals: 0))
            result.append("sends_plain_per_s", LatencySummary.fixed(rates.plain, decimals: 0))
        }
        FileOutput.standardOutput(result.text)
    } catch {
        fail(error)
    }
default:
    FileOutput.standardError(usage)
    exit(arguments.first == "--help" || arguments.first == "-h" ? 0 : 2)
}
