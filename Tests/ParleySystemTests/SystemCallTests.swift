import Glibc
import ParleySystem
import Testing

@Suite("System calls", .serialized)
struct SystemCallTests {
    @Test("an interrupted call is made again, and only once more")
    func retriesOnEINTR() throws {
        var calls = 0
        let result = try SystemCall.retrying("probe") { () -> Int32 in
            calls += 1
            if calls == 1 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 2)
    }

    @Test("a failure carries the call's name, its errno and a stable code")
    func failureIsTyped() {
        var caught: SystemCallError?
        do {
            _ = try SystemCall.retrying("accept4") { () -> Int32 in
                errno = EMFILE
                return -1
            }
        } catch {
            caught = error
        }
        #expect(caught == SystemCallError(call: "accept4", errno: EMFILE))
        #expect(caught?.code == .tooManyOpenFiles)
        #expect(caught?.code.rawValue == "system.too_many_open_files")
        #expect(caught?.description.hasPrefix("system.too_many_open_files: accept4 (") == true)
    }

    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)

    @Test("would-block on an empty non-blocking pipe is a value, not an error")
    func wouldBlockIsAValue() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let reader = FileDescriptor(unsafeAdopting: fds[0])
        let writer = FileDescriptor(unsafeAdopting: fds[1])
        reader.makeNonBlocking()
        var buffer = [UInt8](repeating: 0, count: 4)
        let empty = try buffer.withUnsafeMutableBytes { bytes in try reader.readNonBlocking(into: bytes) }
        #expect(empty == .wouldBlock)
        try writer.writeAll([1, 2, 3])
        let read = try buffer.withUnsafeMutableBytes { bytes in try reader.readNonBlocking(into: bytes) }
        #expect(read == .processed(3))
        try writer.close()
        let end = try buffer.withUnsafeMutableBytes { bytes in try reader.readNonBlocking(into: bytes) }
        #expect(end == .processed(0))
        try reader.close()
    }

    // Whether a descriptor was closed is seen from the other end of a pipe (end of file), not
    // from its number, which a test running in parallel may already have been given again.

    @Test("close releases the descriptor")
    func closeReleases() throws {
        let fds = try makePipe()
        let reader = FileDescriptor(unsafeAdopting: fds.reader)
        let writer = FileDescriptor(unsafeAdopting: fds.writer)
        #expect(try reader.readNonBlocking(into: scratch) == .wouldBlock)
        try writer.close()
        #expect(try reader.readNonBlocking(into: scratch) == .processed(0))
        try reader.close()
    }

    @Test("closeAfter closes even when the body throws")
    func closeAfterOnThrow() throws {
        let fds = try makePipe()
        let reader = FileDescriptor(unsafeAdopting: fds.reader)
        let writer = FileDescriptor(unsafeAdopting: fds.writer)
        var thrown: SystemCallError?
        do {
            try writer.closeAfter { _ throws(SystemCallError) in throw SystemCallError(call: "probe", errno: EIO) }
        } catch {
            thrown = error
        }
        #expect(thrown == SystemCallError(call: "probe", errno: EIO))
        #expect(try reader.readNonBlocking(into: scratch) == .processed(0))
        try reader.close()
    }

    @Test("opening a missing file fails as not found, named open")
    func openMissing() {
        #expect(throws: SystemCallError(call: "open", errno: ENOENT)) {
            try FileDescriptor.open("/nonexistent/parley", O_RDONLY | O_CLOEXEC).close()
        }
    }

    #if DEBUG
    @Test("a descriptor dropped without close is closed anyway and counted as a leak (debug builds)")
    func dropIsCountedAndClosed() throws {
        let before = FileDescriptor.leaksDetected
        let fds = try makePipe()
        let reader = FileDescriptor(unsafeAdopting: fds.reader)
        let writer = FileDescriptor(unsafeAdopting: fds.writer)
        _ = consume writer
        #expect(FileDescriptor.leaksDetected > before)
        #expect(try reader.readNonBlocking(into: scratch) == .processed(0))
        try reader.close()
    }

    @Test("an owning thread reports uses from other threads (debug builds)")
    func owningThreadReportsOtherThreads() throws {
        let owner = OwningThread()
        #expect(owner.isCurrent)
        let seen = Reports()
        ThreadConfinement.withViolationHandler({ seen.add($0) }) {
            owner.check("probe")  // on the owner: no report
            runOnNewThread { owner.check("probe") }
        }
        // Nothing else installs a handler meanwhile: `withViolationHandler` takes turns.
        #expect(seen.all == ["probe used off its owning thread"])
    }
    #endif
}
