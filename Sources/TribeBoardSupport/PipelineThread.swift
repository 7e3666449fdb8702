import Dispatch
import Foundation
import Synchronization

/// A thread of its own for work that both blocks (SQLite, files, the CPU pipelines) and awaits
/// (CloudKit). Inside `run`, this is the task executor of the body and of the child tasks it
/// starts, so their nonisolated code runs here, not on the cooperative pool: that pool has as many
/// threads as cores (two here), and a blocked pool thread would hold up the awaited requests too.
/// The awaited work itself (actors, the network) runs where it always does and resumes here.
package final class PipelineThread: TaskExecutor {
    private let jobs = JobQueue()

    private init(name: String) {
        let executor = UnownedTaskExecutor(ordinary: self)
        // The thread keeps its executor alive until it ends: a job never outlives its executor.
        let thread = Thread { [self] in jobs.drain(on: executor) }
        thread.name = name
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // After `run` returned, a straggler would wait forever: the shared pool runs it instead.
        if !jobs.push(job) { globalConcurrentExecutor.enqueue(job) }
    }

    /// Runs `body` with a new thread as its task executor; the thread ends when `body` has.
    package static func run<Value, Failure: Error>(
        name: String = "tribeboard.pipeline",
        _ body: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let executor = PipelineThread(name: name)
        defer { executor.jobs.close() }
        return try await withTaskExecutorPreference(executor, operation: body)
    }

    /// Starts `body` on a new thread at once and returns without waiting, so the caller can go on
    /// blocking its own thread meanwhile (a child task of a pipeline would start on the pipeline's
    /// thread, and wait until it is free). Await the task's value or result before returning.
    package static func start<Value: Sendable>(
        name: String, _ body: @escaping @Sendable () throws -> Value
    ) -> Task<Value, any Error> {
        let executor = PipelineThread(name: name)
        return Task(executorPreference: executor) {
            defer { executor.jobs.close() }
            return try body()
        }
    }
}

extension PipelineThread {
    /// `start` for an async body: a new thread is its task executor from its first job, so a
    /// caller that then blocks its own thread (a synchronous test waiting for a pipeline) holds
    /// none of the cooperative pool's threads the pipeline needs.
    package static func startAsync<Value: Sendable>(
        name: String, _ body: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        let executor = PipelineThread(name: name)
        return Task(executorPreference: executor) {
            defer { executor.jobs.close() }
            return try await body()
        }
    }
}

/// The jobs waiting for the thread, and whether it still takes any.
private final class JobQueue: Sendable {
    // A handful of jobs at most (a pipeline and the tasks it awaits): a plain array is enough.
    private let state = Mutex<(waiting: [UnownedJob], closed: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)

    /// False once closed: the job was not taken.
    func push(_ job: UnownedJob) -> Bool {
        let taken = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.waiting.append(job)
            return true
        }
        if taken { wake.signal() }
        return taken
    }

    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// The thread's loop: every job in order, until closed and empty.
    func drain(on executor: UnownedTaskExecutor) {
        while true {
            wake.wait()
            let next = state.withLock { state -> (job: UnownedJob?, done: Bool) in
                state.waiting.isEmpty ? (nil, state.closed) : (state.waiting.removeFirst(), false)
            }
            if let job = next.job {
                job.runSynchronously(on: executor)
            } else if next.done {
                return
            }
        }
    }
}
