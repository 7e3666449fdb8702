import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardSupport

/// One `tribeboard resync` run: the store checked to be TribeBoard's before a lock file goes
/// beside it, the store's one resync lock, and the uploads, bounded as a whole by the run's
/// duration. Blocks (SQLite): run it on a `PipelineThread`, where it awaits CloudKit.
package struct ResyncRun: Sendable {
    package let storePath: String
    package let client: CloudKitClient
    package let logger: Logger
    /// `--max-duration`: a promise for the whole run, requests and their backoff included.
    package var maxDuration: Duration?
    /// Pages of one table sent side by side.
    package var concurrency = CloudKitClient.maxConcurrentRequests
    package var onProgress: @Sendable (WorkProgress) -> Void = { _ in }

    package init(storePath: String, client: CloudKitClient, logger: Logger) {
        (self.storePath, self.client, self.logger) = (storePath, client, logger)
    }

    /// Throws the store's errors (not TribeBoard's store, unreadable, failing writes) and the
    /// lock's (`SyncLock.Failure.held`: another run holds it, normal under cron).
    package func run() async throws(ResyncRunError) -> ResyncReport {
        // Not a lock file beside another application's database: what is there is checked first.
        do throws(StoreError) { try TribeBoardStore.identify(at: storePath) } catch { throw .store(error) }
        let lock: SyncLock
        do throws(SyncLock.Failure) { lock = try SyncLock(storePath: storePath) } catch { throw .lock(error) }
        defer { withExtendedLifetime(lock) {} }
        do throws(StoreError) {
            let store = try TribeBoardStore.open(at: storePath)
            let deadline = maxDuration.map { ContinuousClock.now + $0 }
            var resyncer = Resyncer(store: store, client: client.bounded(by: deadline), logger: logger,
                                    concurrency: concurrency)
            resyncer.onProgress = onProgress
            return try await resyncer.run(until: deadline)
        } catch {
            throw .store(error)
        }
    }

    /// Retries of one request stay well inside a run bounded to `maxDuration` seconds.
    package static func retryPolicy(maxDuration: Int?) -> RetryPolicy {
        var policy = RetryPolicy()
        if let maxDuration { policy.maxTotalSeconds = max(5, Double(maxDuration) / 4) }
        return policy
    }
}

extension ResyncReport {
    /// Writes `metrics(exitStatus:)` whole or not at all (node_exporter reads it at any moment).
    package func writeMetrics(to path: String, exitStatus: Int32) throws {
        try AtomicFile.write(
            Array(metrics(exitStatus: exitStatus).utf8), to: path, permissions: 0o644)
    }
}
