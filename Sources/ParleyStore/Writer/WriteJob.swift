/// One operation waiting for the group-commit writer.
protocol WriteJob: AnyObject, Sendable {
    /// Runs the operation on the writer's connection; returns whether it succeeded.
    func perform(_ context: SQLContext) -> Bool
    /// Delivers the outcome to the caller once the batch's transaction has ended.
    ///
    /// `batchFailure` is set when the transaction did not commit: then every operation
    /// that had succeeded on its own gets that error instead of its result.
    func finish(batchFailure: StoreError?)
    /// Whether the operation's last run failed because the database server found it in a deadlock
    /// or a serialization failure (`busy` on PostgreSQL): then its whole transaction is worth running again.
    var failedOnContention: Bool { get }
}

/// A write operation returning `T`, with the continuation its caller awaits.
final class TypedWriteJob<T: Sendable>: WriteJob, @unchecked Sendable {
    // Safe to share: `outcome` is only touched on the writer thread (perform, then finish),
    // after the job was handed over through the writer's locked queue.
    private let operation: @Sendable (SQLContext) throws -> T
    private let continuation: CheckedContinuation<T, any Error>
    private var outcome: Result<T, any Error>?

    init(operation: @escaping @Sendable (SQLContext) throws -> T, continuation: CheckedContinuation<T, any Error>) {
        self.operation = operation
        self.continuation = continuation
    }

    func perform(_ context: SQLContext) -> Bool {
        do {
            outcome = .success(try operation(context))
            return true
        } catch {
            outcome = .failure(error)
            return false
        }
    }

    func finish(batchFailure: StoreError?) {
        deliver(outcome, batchFailure: batchFailure, to: continuation)
    }

    var failedOnContention: Bool { isContention(outcome) }
}

/// Whether `outcome` is the `busy` failure PostgreSQL's deadlock and serialization errors map to.
func isContention<T>(_ outcome: Result<T, any Error>?) -> Bool {
    guard case .failure(let error as StoreError)? = outcome else { return false }
    return error.code == .busy
}

/// Resumes a write's caller: with its own error, with its result when its batch committed,
/// or with the batch's error when the batch did not.
func deliver<T: Sendable>(_ outcome: Result<T, any Error>?, batchFailure: StoreError?, to continuation: CheckedContinuation<T, any Error>) {
    switch (outcome, batchFailure) {
    case (.failure(let error)?, _):
        continuation.resume(throwing: error)
    case (.success(let value)?, nil):
        continuation.resume(returning: value)
    case (_, let failure?):
        continuation.resume(throwing: failure)
    case (nil, nil):
        continuation.resume(throwing: StoreError(.internal, "write operation finished without running"))
    }
}
