import Dispatch
import Foundation
import Synchronization
import TribeBoardCSV

/// Reads and parses the next batches of the CSV on a thread of its own while the pipeline writes
/// the previous ones to the store and makes their codes and QR files: the store writer is the
/// pipeline's critical path. The pipeline awaits a batch; the reading thread blocks on the file
/// and waits for a free slot (at most `depth` batches ahead). The reader is handed over at the
/// start and lives in a `Mutex` that only the reading thread takes.
final class BatchPrefetcher: Sendable {
    typealias Produce = @Sendable (FamilyCSVReader) throws -> [BatchEntry]?
    typealias Outcome = Result<[BatchEntry]?, any Error>

    private struct State {
        var ready: [Outcome] = []
        /// The pipeline, waiting for the next batch.
        var waiter: CheckedContinuation<Outcome, Never>?
        var cancelled = false
    }

    private let reader: Mutex<FamilyCSVReader>
    private let produce: Produce
    private let state = Mutex(State())
    private let free: DispatchSemaphore

    init(reader: sending FamilyCSVReader, depth: Int = 2, produce: @escaping Produce) {
        self.reader = Mutex(reader)
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
    func next() async throws -> [BatchEntry]? {
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Outcome, Never>) in
            let ready = state.withLock { state -> Outcome? in
                if !state.ready.isEmpty { return state.ready.removeFirst() }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        free.signal()
        return try outcome.get()
    }

    /// Stops reading ahead: for a caller that gives up before the end of the file.
    func cancel() {
        state.withLock { $0.cancelled = true }
        free.signal()
    }

    private func run() {
        while true {
            free.wait()
            if state.withLock({ $0.cancelled }) { return }
            let outcome = Outcome { try reader.withLock { reader in try produce(reader) } }
            let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                guard let waiter = state.waiter else {
                    state.ready.append(outcome)
                    return nil
                }
                state.waiter = nil
                return waiter
            }
            waiter?.resume(returning: outcome)
            switch outcome {
            case .success(nil), .failure: return
            case .success: continue
            }
        }
    }
}
