/// Which readiness mechanism an ``EventLoop`` waits on.
///
/// Both backends are level-triggered and behave identically as seen from connections; `poll`
/// exists for portability and to keep the loop honest about not depending on epoll quirks.
public enum SelectorBackend: String, Sendable, CaseIterable {
    /// Linux `epoll`, level-triggered (the default on Linux).
    case epoll
    /// POSIX `poll()`, portable and O(registered fds) per wait.
    case poll

    /// The best backend available on this platform.
    public static var platformDefault: SelectorBackend {
        #if os(Linux)
        return .epoll
        #else
        return .poll
        #endif
    }
}
