/// An event loop runs Swift tasks too: a task created with `Task(executorPreference: loop)`
/// starts on the loop thread and, whenever it resumes (a database continuation, say), comes
/// back to the loop instead of to the global cooperative pool.
///
/// A request handler that starts such a task and answers from it saves two thread hand-offs
/// per request (loop → pool and pool → loop), and the answer is written without hopping,
/// since the responder already runs on its own loop. Work in such tasks must not block: it
/// holds up every connection of the loop.
extension EventLoop: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        execute { job.runSynchronously(on: executor) }
    }
}
