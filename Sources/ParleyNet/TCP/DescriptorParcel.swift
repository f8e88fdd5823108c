import ParleySystem
import Synchronization

/// Carries one owned descriptor into a task for another loop (an escaping closure cannot
/// capture a non-copyable value); whoever takes it first owns it.
final class DescriptorParcel: Sendable {
    private let content: Mutex<FileDescriptor?>

    init(_ descriptor: consuming FileDescriptor) {
        content = Mutex(consume descriptor)
    }

    /// A task that never ran (its loop stopped first) still closes what it carried.
    deinit { try? take()?.close() }

    /// The descriptor, once; nil after.
    func take() -> FileDescriptor? {
        content.withLock { $0.take() }
    }
}
