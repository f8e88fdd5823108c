#if canImport(Glibc)
import Glibc
#endif
/// The load mode from setup to the RESULT line.
struct LoadRun {
    let options: LoadOptions

    func run() throws(BenchError) -> ResultLine {
        var result = ResultLine(label: options.label)
        result.append("senders", String(options.senders))
        result.append("rooms", String(options.rooms))
        let setupStart = BenchClock.now()
        let setup = try ChatSetup(options: options).run()
        report(
            "setup: \(options.senders + 1) users and tokens, \(max(options.rooms, options.listRooms)) rooms in "
                + LatencySummary.fixed(Double(BenchClock.now() - setupStart) / 1e9, decimals: 1) + " s (untimed)")

        let driver = try SendDriver(options: options, tokens: setup.senderTokens)
        report("\(options.senders) sender connections open, \(options.senders / options.rooms) senders per room")
        if options.closedSeconds > 0 {
            if options.warmupSeconds > 0 { _ = try driver.run(.closed, seconds: options.warmupSeconds, record: false) }
            let outcome = try driver.run(.closed, seconds: options.closedSeconds, record: true)
            report(outcome.text)
            result.append(outcome.fields())
        }
        for rate in options.rates {
            _ = try driver.run(.rate(rate), seconds: 1, record: false)
            let outcome = try driver.run(.rate(rate), seconds: options.rateSeconds, record: true)
            report(outcome.text)
            result.append(outcome.fields())
        }

        let probe = ReadProbe(options: options, readerToken: setup.readerToken)
        let settled = options.settleSeconds > 0 ? ", after a \(options.settleSeconds)-s pause" : ", right after the sends"
        if options.settleSeconds > 0 { sleep(UInt32(options.settleSeconds)) }
        if options.historySamples > 0 {
            let history = try probe.history()
            report("history page (latest 50, one connection, sequential, server otherwise idle\(settled)): \(history.text)")
            result.append(history.fields("history"))
        }
        if options.roomListSamples > 0 && options.listRooms > 0 {
            let rooms = max(options.rooms, options.listRooms)
            let list = try probe.roomList()
            report("room list of a user in \(rooms) rooms (one page), every message of the run unread: \(list.text)")
            result.append(list.fields("roomlist"))
            try probe.markAllRead()
            let read = try probe.roomList()
            report("room list of a user in \(rooms) rooms (one page), all read: \(read.text)")
            result.append(read.fields("roomlist_read"))
        }
        return result
    }

    private func report(_ line: String) { FileOutput.standardOutput(line) }
}
