import ParleyPlatform

/// The thread that created a value, for ``ThreadConfinement`` checks of later uses.
///
/// In release builds it holds nothing and checks nothing.
public struct OwningThread: Sendable {
    #if DEBUG
    private let thread: pthread_t
    #endif

    /// Records the calling thread as the owner.
    public init() {
        #if DEBUG
        thread = pthread_self()
        #endif
    }

    /// Debug builds: whether the calling thread is the owner. Release builds: always true.
    public var isCurrent: Bool {
        #if DEBUG
        return pthread_equal(thread, pthread_self()) != 0
        #else
        return true
        #endif
    }

    /// Debug builds: reports `what` as a violation when called off the owning thread.
    @inline(__always)
    public func check(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        if !isCurrent { ThreadConfinement.reportViolation("\(what()) used off its owning thread", file: file, line: line) }
        #endif
    }
}
