#if canImport(CLinux)
import CLinux
#endif

/// What a thread the process starts itself (not a Swift pool worker) sets up about itself.
public enum CurrentThread {
    /// Names the calling thread (at most 15 bytes, the kernel's limit, are kept) and gives it
    /// the nice value of the process's main thread. A thread created from a Swift pool worker
    /// would otherwise inherit that worker's name and nice value. Lowering the nice value needs
    /// privilege (a server started with `nice -n -20` has it); without it the thread keeps the
    /// one it inherited. Elsewhere than Linux nice values are per process, so only Linux acts.
    public static func adoptProcessDefaults(name: String) {
        #if canImport(CLinux)
        _ = clinux_name_current_thread(String(name.utf8.prefix(15))!)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let processNice = getpriority(which, id_t(getpid()))
        guard errno == 0 else { return }
        // On Linux, `who` 0 means the calling thread: nice values are per thread.
        _ = setpriority(which, 0, processNice)
        #endif
    }
}
