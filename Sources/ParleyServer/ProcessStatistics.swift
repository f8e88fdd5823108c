import ParleyPlatform

/// What the kernel says about this process, for the `process_*` metrics: descriptors open and
/// their limit, memory, CPU time, threads and the start time. Read from `/proc` at each scrape
/// (a handful of small reads); the parsing is apart from the reading so it can be tested.
struct ProcessStatistics: Equatable {
    /// Descriptors open now (entries of `/proc/self/fd`).
    var openDescriptors: Int?
    /// The soft RLIMIT_NOFILE.
    var descriptorLimit: Int
    /// Resident memory in bytes.
    var residentBytes: Int?
    /// Virtual memory in bytes.
    var virtualBytes: Int?
    /// User plus system CPU time in clock ticks.
    var cpuTicks: Int?
    /// Threads.
    var threads: Int?
    /// Start time in clock ticks after boot.
    var startTicks: Int?

    /// The figures of the process now (fields the kernel would not give stay nil).
    static func current() -> ProcessStatistics {
        var statistics = ProcessStatistics(openDescriptors: countDescriptors(), descriptorLimit: FileDescriptorLimit.current)
        if let stat = ParleyServerMain.readFile("/proc/self/stat"), let fields = StatFields(String(decoding: stat, as: UTF8.self)) {
            statistics.cpuTicks = fields.cpuTicks
            statistics.threads = fields.threads
            statistics.startTicks = fields.startTicks
            statistics.virtualBytes = fields.virtualBytes
            statistics.residentBytes = fields.residentPages.map { $0 * pageSize }
        }
        return statistics
    }

    /// Fields of `/proc/self/stat` (proc(5)): the command name in parentheses may hold spaces
    /// and parentheses, so fields are counted from after the last `)`.
    struct StatFields: Equatable {
        var cpuTicks: Int?
        var threads: Int?
        var startTicks: Int?
        var virtualBytes: Int?
        var residentPages: Int?

        init?(_ text: String) {
            guard let close = text.lastIndex(of: ")") else { return nil }
            // After ")" comes field 3 (state); field n is at n - 3.
            let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
            func field(_ n: Int) -> Int? { fields.indices.contains(n - 3) ? Int(fields[n - 3]) : nil }
            if let user = field(14), let system = field(15) { cpuTicks = user + system }
            threads = field(20)
            startTicks = field(22)
            virtualBytes = field(23)
            residentPages = field(24)
        }
    }

    /// `btime` of `/proc/stat`: the boot time in Unix seconds.
    static func bootTime(procStat text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Int(line.dropFirst("btime ".count).trimmingPrefix(" "))
        }
        return nil
    }

    /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
    static let ticksPerSecond: Int = max(1, sysconf(Int32(_SC_CLK_TCK)))

    private static let pageSize: Int = max(1, sysconf(Int32(_SC_PAGESIZE)))

    /// The boot time, read once: it does not change while the process runs.
    static let bootTimeSeconds: Int? = ParleyServerMain.readFile("/proc/stat").flatMap {
        bootTime(procStat: String(decoding: $0, as: UTF8.self))
    }

    /// Entries of `/proc/self/fd`, less the one the listing itself holds open.
    private static func countDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.first }
            if name != UInt8(ascii: ".") { count += 1 }
        }
        closedir(directory)
        return max(0, count - 1)
    }
}
