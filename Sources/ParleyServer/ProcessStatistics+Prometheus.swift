import ParleyChannels

extension ProcessStatistics {
    /// The `process_*` families, named as Prometheus client libraries name them, so existing
    /// dashboards and alerts apply unchanged.
    func render(
        ticksPerSecond: Int = ProcessStatistics.ticksPerSecond,
        bootTime: Int? = ProcessStatistics.bootTimeSeconds
    ) -> String {
        var out = PrometheusText()
        if let openDescriptors {
            out.add("process_open_fds", "gauge", "Number of open file descriptors.", openDescriptors)
        }
        out.add("process_max_fds", "gauge", "Maximum number of open file descriptors (soft limit).", descriptorLimit)
        if let residentBytes {
            out.add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", residentBytes)
        }
        if let virtualBytes {
            out.add("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", virtualBytes)
        }
        if let cpuTicks {
            out.family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.")
            out.sample("process_cpu_seconds_total", [], PrometheusText.decimal(cpuTicks, ticksPerSecond))
        }
        if let startTicks, let bootTime {
            out.family("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.")
            out.sample("process_start_time_seconds", [], PrometheusText.decimal(bootTime * ticksPerSecond + startTicks, ticksPerSecond))
        }
        if let threads {
            out.add("process_threads", "gauge", "Number of OS threads in the process.", threads)
        }
        return out.text
    }
}
