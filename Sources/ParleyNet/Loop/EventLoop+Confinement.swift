import ParleySystem

extension EventLoop {
    /// Debug builds: reports `what` (a connection's or listener's method) as a
    /// ``ThreadConfinement`` violation when called off this loop's thread, the promise the
    /// loop-confined classes' `@unchecked Sendable` rests on. Release builds check nothing.
    @inline(__always)
    func assertInEventLoop(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        if !inEventLoop {
            ThreadConfinement.reportViolation("\(what()) used off its event loop (loop \(index))", file: file, line: line)
        }
        #endif
    }
}
