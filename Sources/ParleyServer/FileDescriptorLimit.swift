import ParleyPlatform

/// The process's open-file limit (RLIMIT_NOFILE): every connection holds a descriptor, and the
/// usual soft limit of 1,024 would cap the server far below what the hard limit allows.
enum FileDescriptorLimit {
    /// The soft limit in force now (0 when it cannot be read).
    static var current: Int {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return 0 }
        return clamp(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit (an unlimited hard limit to the kernel's
    /// `nr_open`); returns the soft limit in force afterwards and whether it was raised.
    @discardableResult
    static func raiseToHardLimit() -> (limit: Int, raised: Bool) {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return (0, false) }
        var target = limit.rlim_max
        if target == rlim_t.max { target = rlim_t(kernelMaximum) }
        guard target > limit.rlim_cur else { return (clamp(limit.rlim_cur), false) }
        var raised = limit
        raised.rlim_cur = target
        guard setrlimit(resourceKind, &raised) == 0 else { return (clamp(limit.rlim_cur), false) }
        return (clamp(target), true)
    }

    private static let resourceKind = ResourceLimits.openFiles

    /// `/proc/sys/fs/nr_open`, the most descriptors a process may have; 1,048,576 if unreadable.
    private static var kernelMaximum: Int {
        guard let bytes = ParleyServerMain.readFile("/proc/sys/fs/nr_open"),
            let value = Int(String(decoding: bytes, as: UTF8.self).filter(\.isNumber)), value > 0
        else { return 1 << 20 }
        return value
    }

    private static func clamp(_ value: rlim_t) -> Int {
        value == rlim_t.max || value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
