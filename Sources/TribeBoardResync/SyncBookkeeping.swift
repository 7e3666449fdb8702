import Foundation
import TribeBoardStore
import TribeBoardDomain

/// How a failed record waits before its next attempt, across runs.
package struct SyncBackoff: Sendable {
    package var base: Double = 60
    var maximum: Double = 6 * 3600
    /// Attempts of a record whose target may still come (a missing reference) before quarantine.
    package var maxAttempts = 8

    package init() {}

    package func delay(afterAttempts attempts: Int) -> Double {
        min(maximum, base * pow(2, Double(max(attempts - 1, 0))))
    }

    /// The server's `retryAfter` when it gave a usable one (Apple: wait that long, then retry),
    /// kept within (0, maximum]; otherwise the backoff.
    package func delay(afterAttempts attempts: Int, retryAfter: Double?) -> Double {
        guard let retryAfter, retryAfter.isFinite, retryAfter >= 0 else {
            return delay(afterAttempts: attempts)
        }
        return min(maximum, max(retryAfter, 0.001))
    }
}

/// Resync's policy over the store's sync queue: how a failed attempt is recorded (retry with
/// backoff, quarantine, conflict). The SQL is the store's (`SyncQueue`).
struct SyncBookkeeping {
    let queue: SyncQueue

    init(store: TribeBoardStore) {
        queue = SyncQueue(store: store)
    }

    enum Outcome {
        /// `retryAfter`: what CloudKit asked this record to wait (THROTTLED), honoured over the
        /// backoff. `limited`: the attempts count toward quarantine. CloudKit's own load
        /// (THROTTLED, TRY_AGAIN_LATER) is not the record's fault: such a record waits, however
        /// long it lasts.
        case retry(
            error: String, backoff: SyncBackoff, retryAfter: Double? = nil, limited: Bool = true)
        case quarantine(error: String)
        case conflict(with: String, error: String)

        /// What the attempt leaves, given the attempts made (this one included).
        func verdict(attempts: Int, at now: Timestamp) -> SyncVerdict {
            switch self {
            case .retry(let message, let backoff, let retryAfter, let limited):
                if limited && attempts >= backoff.maxAttempts {
                    return SyncVerdict(
                        status: .quarantined, error: message + " (after \(attempts) attempts)")
                }
                let delay = backoff.delay(afterAttempts: attempts, retryAfter: retryAfter)
                return SyncVerdict(
                    status: .retrying, error: message, nextAttemptAt: now.adding(seconds: delay))
            case .quarantine(let message):
                return SyncVerdict(status: .quarantined, error: message)
            case .conflict(let other, let message):
                return SyncVerdict(status: .conflict, error: message, conflictWith: other)
            }
        }
    }

    /// Records a failed attempt of `row`, unless the row changed since it was read.
    func record(_ outcome: Outcome, row: PendingRow, at now: Timestamp) throws {
        try queue.recordFailure(row, at: now) { attempts in outcome.verdict(attempts: attempts, at: now) }
    }
}
