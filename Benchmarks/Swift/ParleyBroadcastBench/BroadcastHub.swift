import ParleyNet
import ParleyWire

/// Every open benchmark socket, partitioned by event loop, and the fan-out over them.
///
/// A message is encoded once into a ``SharedBytes`` frame; each loop then gets one task (or,
/// for the sender's own loop, one direct call) that queues that same frame on each of its
/// sockets. Nothing is shared between loops but the immutable frame.
final class BroadcastHub: Sendable {
    private let group: EventLoopGroup
    private let partitions: [Partition]

    init(group: EventLoopGroup) {
        self.group = group
        self.partitions = group.loops.map { _ in Partition() }
    }

    /// Takes a freshly opened socket into the broadcast. On the socket's loop.
    func adopt(_ socket: WebSocket) {
        let partition = partitions[socket.loop.index]
        partition.add(socket)
        socket.onMessage = { [self] _, message in
            if case .text(let text) = message { broadcast(WebSocket.serverTextFrame(text)) }
        }
        socket.onClose = { socket, _, _ in partition.remove(socket) }
    }

    /// Hands `frame` to every loop once; on the calling loop it is queued right away, but only
    /// after the other loops were handed theirs, so they fan out meanwhile instead of waiting
    /// for this loop's whole partition.
    private func broadcast(_ frame: SharedBytes) {
        var local: Partition?
        for (loop, partition) in zip(group.loops, partitions) {
            if loop.inEventLoop {
                local = partition
            } else {
                loop.execute { partition.send(frame) }
            }
        }
        local?.send(frame)
    }
}

/// The sockets of one loop, in a dense array for a tight send loop; removal swaps the last
/// socket into the hole, so each socket remembers its position.
private final class Partition: @unchecked Sendable {
    // @unchecked: touched only on its own loop (adopt/onClose run there, send is hopped there).
    private var sockets: [WebSocket] = []
    /// The same sockets, unretained, in the same order: the send loop borrows each one instead
    /// of retaining and releasing it (two atomic writes per subscriber, on a cache line the send
    /// does not otherwise touch). `sockets` owns them.
    private var borrowed: [Unmanaged<WebSocket>] = []

    func add(_ socket: WebSocket) {
        socket.userData = Position(sockets.count)
        sockets.append(socket)
        borrowed.append(.passUnretained(socket))
    }

    func remove(_ socket: WebSocket) {
        guard let position = socket.userData as? Position, position.index >= 0 else { return }
        let last = sockets.removeLast()
        borrowed.removeLast()
        if last !== socket {
            sockets[position.index] = last
            borrowed[position.index] = .passUnretained(last)
            (last.userData as? Position)?.index = position.index
        }
        position.index = -1
    }

    func send(_ frame: SharedBytes) {
        // The copies keep every socket alive even if one is removed while the loop runs.
        let owners = sockets, targets = borrowed
        withExtendedLifetime(owners) {
            for socket in targets { socket._withUnsafeGuaranteedRef { $0.send(shared: frame) } }
        }
    }
}

/// A socket's index in its partition (kept in `WebSocket.userData`).
private final class Position {
    var index: Int
    init(_ index: Int) { self.index = index }
}
