/// Resource names for `getrlimit`/`setrlimit` in the type this platform's C library takes.
public enum ResourceLimits {
    /// RLIMIT_NOFILE, the open-file limit (Glibc spells its type `__rlimit_resource_t`).
    #if canImport(Glibc)
    public static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    public static let openFiles = RLIMIT_NOFILE
    #endif
}
