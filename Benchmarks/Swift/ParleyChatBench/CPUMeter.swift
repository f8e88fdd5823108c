import Glibc

/// CPU time of the server processes together, of this process and of the whole host between two readings.
struct CPUMeter {
    /// One reading: CPU seconds used so far.
    struct Reading {
        var server: Double?
        var own: Double
        var hostBusy: Double
        var hostTotal: Double
        var wall: UInt64
    }

    /// Usage between two readings, in percent of one core (host: of all cores).
    struct Usage {
        var serverPercent: Double?
        var ownPercent: Double
        var hostPercent: Double

        func fields(_ prefix: String) -> [(String, String)] {
            var fields = [
                ("\(prefix)_bench_cpu_pct", LatencySummary.fixed(ownPercent, decimals: 0)),
                ("\(prefix)_host_cpu_pct", LatencySummary.fixed(hostPercent, decimals: 0))
            ]
            if let serverPercent { fields.append(("\(prefix)_server_cpu_pct", LatencySummary.fixed(serverPercent, decimals: 0))) }
            return fields
        }

        var text: String {
            let server = serverPercent.map { "server \(LatencySummary.fixed($0, decimals: 0))% of a core, " } ?? ""
            return
                "\(server)bench \(LatencySummary.fixed(ownPercent, decimals: 0))% of a core, host \(LatencySummary.fixed(hostPercent, decimals: 0))% of all cores busy"
        }
    }

    let serverPIDs: [Int32]
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    func read() -> Reading {
        let host = Self.hostTicks()
        return Reading(
            server: serverTicks().map { $0 / ticksPerSecond },
            own: (processTicks("/proc/self/stat") ?? 0) / ticksPerSecond,
            hostBusy: host.busy, hostTotal: host.total, wall: BenchClock.now())
    }

    func usage(from start: Reading, to end: Reading) -> Usage {
        let seconds = Double(end.wall - start.wall) / 1e9
        let server: Double? = if let a = start.server, let b = end.server { (b - a) / seconds * 100 } else { nil }
        let total = end.hostTotal - start.hostTotal
        return Usage(
            serverPercent: server, ownPercent: (end.own - start.own) / seconds * 100,
            hostPercent: total > 0 ? (end.hostBusy - start.hostBusy) / total * 100 : 0)
    }

    /// utime + stime of every server process together; nil when there is none or one has gone.
    private func serverTicks() -> Double? {
        guard !serverPIDs.isEmpty else { return nil }
        var total = 0.0
        for pid in serverPIDs {
            guard let ticks = processTicks("/proc/\(pid)/stat") else { return nil }
            total += ticks
        }
        return total
    }

    /// utime + stime of a process (fields 14 and 15 of /proc/PID/stat, after the command name).
    private func processTicks(_ path: String) -> Double? {
        guard let text = Self.readFile(path), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return user + system
    }

    /// Busy and total ticks of all CPUs from the first line of /proc/stat.
    private static func hostTicks() -> (busy: Double, total: Double) {
        guard let text = readFile("/proc/stat"), let line = text.split(separator: "\n").first else { return (0, 0) }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 8 else { return (0, 0) }
        let idle = values[3] + values[4]
        let total = values[0..<8].reduce(0, +)
        return (total - idle, total)
    }

    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
