/// A write operation that is a single statement plus a completion, so the writer can send a
/// run of them at once (one round trip on a server) instead of waiting for each answer.
///
/// The contract that lets a run share one savepoint: a statement that is going to be refused
/// (its completion fails) writes nothing, and a statement that raises an error makes the writer
/// undo the run and perform each of its jobs alone, in its own savepoint.
protocol StatementWriteJob: WriteJob {
    /// The statement to run for an operation at `now` (milliseconds since the Unix epoch); starts the job afresh.
    func statement(at now: Int64) -> SQLStatement
    /// The statement that may run this job together with its neighbours of the same kind, if any.
    var coalescing: CoalescedStatement? { get }
    /// This job's row of arguments for `coalescing`; like `statement(at:)`, starts the job afresh.
    func coalescedArguments() -> [String?]
    /// Takes one row of the statement's answer.
    func receive(_ row: any SQLRow)
    /// Turns the answer into the caller's outcome (it may query further); returns whether the operation succeeded.
    func complete(_ context: SQLContext) -> Bool
}

/// A statement write whose answer's first row is decoded to `Row`, then completed to `T`.
final class TypedStatementWriteJob<Row, T: Sendable>: StatementWriteJob, @unchecked Sendable {
    // Safe to share: `row` and `outcome` are only touched on the writer thread (statement,
    // receive, complete or perform, then finish), after the job went through the writer's locked queue.
    private let makeStatement: @Sendable (Int64) -> SQLStatement
    let coalescing: CoalescedStatement?
    private let arguments: [String?]
    private let decode: @Sendable (any SQLRow) throws -> Row
    private let completion: @Sendable (SQLContext, Row?) throws -> T
    private let continuation: CheckedContinuation<T, any Error>
    private var row: Result<Row, any Error>?
    private var outcome: Result<T, any Error>?

    init(
        statement: @escaping @Sendable (Int64) -> SQLStatement,
        decode: @escaping @Sendable (any SQLRow) throws -> Row,
        complete: @escaping @Sendable (SQLContext, Row?) throws -> T,
        coalescing: (statement: CoalescedStatement, arguments: [String?])?,
        continuation: CheckedContinuation<T, any Error>
    ) {
        self.makeStatement = statement
        self.coalescing = coalescing?.statement
        self.arguments = coalescing?.arguments ?? []
        self.decode = decode
        self.completion = complete
        self.continuation = continuation
    }

    func statement(at now: Int64) -> SQLStatement {
        row = nil
        outcome = nil
        return makeStatement(now)
    }

    func coalescedArguments() -> [String?] {
        row = nil
        outcome = nil
        return arguments
    }

    func receive(_ answer: any SQLRow) {
        guard row == nil else { return }
        row = Result { try decode(answer) }
    }

    func complete(_ context: SQLContext) -> Bool {
        do {
            outcome = .success(try completion(context, try row?.get()))
            return true
        } catch {
            outcome = .failure(error)
            return false
        }
    }

    /// Runs the statement on its own, then completes it: the writer's path for a lone job and for a failed run.
    func perform(_ context: SQLContext) -> Bool {
        let statement = statement(at: context.now)
        do {
            try context.connection.query(statement.sql, statement.parameters) { receive($0) }
        } catch {
            outcome = .failure(error)
            return false
        }
        return complete(context)
    }

    func finish(batchFailure: StoreError?) {
        deliver(outcome, batchFailure: batchFailure, to: continuation)
    }

    var failedOnContention: Bool { isContention(outcome) }
}
