import ParleySystem

extension NetError {
    /// The network error for a failed system call, its detail `detail` or else the call's name.
    init(_ error: SystemCallError, _ detail: String? = nil) {
        self = NetError.fromErrno(error.errno, detail ?? error.call)
    }
}
