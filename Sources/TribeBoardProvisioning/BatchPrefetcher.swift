import Dispatch
import Foundation
import Synchronization
import TribeBoardCSV

/// Reads and parses the next batches of the CSV on a thread of its own while the caller writes
/// the previous ones to the store: the store writer is the pipeline's critical path.
///
/// Unchecked Sendable: `produce` (and the CSV reader it holds) runs on the prefetch thread only.
final class BatchPrefetcher: @unchecked Sendable {
    private let produce: () throws -> [BatchEntry]?
    private let ready = Mutex<[Result<[BatchEntry]?, any Error>]>([])
    private let cancelled = Atomic<Bool>(false)
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore

    init(depth: Int = 2, produce: @escaping () throws -> [BatchEntry]?) {
        self.produce = produce
        // Start at 0 and add the permits: libdispatch traps when a semaphore is freed with a lower
        // count than it was created with, which is the state a run stopped by an error leaves.
        free = DispatchSemaphore(value: 0)
        for _ in 0..<max(depth, 1) { free.signal() }
        let thread = Thread { [self] in run() }
        thread.name = "tribeboard.csv"
        thread.start()
    }

    /// The next batch, nil at the end of the file; rethrows what reading the file threw.
    func next() throws -> [BatchEntry]? {
        filled.wait()
        let result = ready.withLock { $0.removeFirst() }
        free.signal()
        return try result.get()
    }

    /// Stops reading ahead: for a caller that gives up before the end of the file.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        free.signal()
    }

    private func run() {
        while true {
            free.wait()
            if cancelled.load(ordering: .relaxed) { return }
            let result = Result { try produce() }
            ready.withLock { $0.append(result) }
            filled.signal()
            switch result {
            case .success(nil), .failure: return
            case .success: continue
            }
        }
    }
}
