import ParleyPlatform
import ParleyWire

/// A FIFO of byte chunks waiting to be written to one socket.
///
/// Chunks are ``SharedBytes`` (possibly shared with other connections); `headOffset` counts
/// how much of the first chunk is already on the wire. Storage is a ring that keeps its
/// capacity once grown, so steady traffic does not allocate; an idle connection that never
/// queued anything owns no storage at all.
struct OutboundQueue {
    private var ring: ContiguousArray<SharedBytes?> = []
    private var head = 0
    private(set) var chunkCount = 0
    /// How much of the first chunk has been written already.
    private(set) var headOffset = 0
    /// Unwritten bytes across all chunks.
    private(set) var byteCount = 0

    var isEmpty: Bool { chunkCount == 0 }

    mutating func append(_ chunk: SharedBytes) {
        if chunkCount == ring.count { grow() }
        ring[(head + chunkCount) & (ring.count - 1)] = chunk
        chunkCount += 1
        byteCount += chunk.count
    }

    private mutating func grow() {
        let newCapacity = Swift.max(2, ring.count * 2)
        var fresh = ContiguousArray<SharedBytes?>(repeating: nil, count: newCapacity)
        for i in 0..<chunkCount { fresh[i] = ring[(head + i) & (ring.count - 1)] }
        ring = fresh
        head = 0
    }

    /// Fills `iovecs` with up to `iovecs.count` unwritten ranges, in order; returns how many.
    func gather(into iovecs: UnsafeMutableBufferPointer<iovec>) -> Int {
        let n = Swift.min(chunkCount, iovecs.count)
        let mask = ring.count - 1
        for i in 0..<n {
            let chunk = ring[(head + i) & mask].unsafelyUnwrapped
            let skip = i == 0 ? headOffset : 0
            iovecs[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: chunk.baseAddress + skip), iov_len: chunk.count - skip)
        }
        return n
    }

    /// Drops `written` bytes from the front.
    mutating func consume(_ written: Int) {
        var remaining = written
        byteCount -= written
        let mask = ring.count - 1
        while remaining > 0 {
            let chunk = ring[head].unsafelyUnwrapped
            let left = chunk.count - headOffset
            if remaining >= left {
                remaining -= left
                ring[head] = nil
                head = (head + 1) & mask
                chunkCount -= 1
                headOffset = 0
            } else {
                headOffset += remaining
                remaining = 0
            }
        }
        if chunkCount == 0 { head = 0 }
    }

    /// Drops every chunk not yet started; a partially written first chunk stays so the byte
    /// stream keeps its framing. Returns the number of bytes dropped.
    @discardableResult
    mutating func discardUnstarted() -> Int {
        let keep = headOffset > 0 ? 1 : 0
        let before = byteCount
        let mask = ring.count - 1
        while chunkCount > keep {
            let index = (head + chunkCount - 1) & mask
            byteCount -= ring[index].unsafelyUnwrapped.count
            ring[index] = nil
            chunkCount -= 1
        }
        if chunkCount == 0 { head = 0; headOffset = 0 }
        return before - byteCount
    }

    /// Drops everything and releases the storage.
    mutating func removeAll() {
        ring = []
        head = 0
        chunkCount = 0
        headOffset = 0
        byteCount = 0
    }
}
