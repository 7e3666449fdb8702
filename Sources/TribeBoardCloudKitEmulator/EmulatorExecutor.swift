import Dispatch

/// Runs the emulator's tasks on threads of its own (Swift's task executor preference, inherited by
/// every task the server starts), so that a process whose cooperative threads are all busy, a test
/// runner waiting on child processes for instance, still gets its answers.
final class EmulatorExecutor: TaskExecutor {
    private let queue = DispatchQueue(
        label: "tribeboard.emulator", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
