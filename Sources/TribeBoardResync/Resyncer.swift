import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardSupport

/// Uploads every record waiting for sync: families, then user profiles, then memberships
/// (references need their targets), 200 per request, every per-record result read.
///
/// - Idempotent: a create answered EXISTS for a record identical to ours that this key created is a
///   success (the upload happened, the local mark did not, e.g. after a kill -9). Another
///   creator's identical record is not ours (only its creator may change or delete it, and the app
///   follows our claim only to a family we wrote): a name conflict, as a different record is.
/// - A family goes up only once CloudKit holds its code's claim for it (`CodeClaim`); a code
///   another family claimed, or (checked first, for families a claim-unaware app wrote) another
///   remote record holds, is a conflict: the family is not uploaded and nothing remote is
///   overwritten.
/// - Failed records wait with backoff across runs; permanent failures are quarantined, so one bad
///   record neither blocks the rest nor is retried forever.
package struct Resyncer: Sendable {
    let store: TribeBoardStore
    let client: CloudKitClient
    let logger: Logger
    let backoff: SyncBackoff
    /// Pages of one table in flight at once (each a few requests; the client sends at most 4 at a
    /// time).
    let concurrency: Int
    /// Called after each page: records settled so far (uploaded or failed), of how many were
    /// pending at the start, and how many failed.
    package var onProgress: @Sendable (WorkProgress) -> Void = { _ in }

    package init(
        store: TribeBoardStore, client: CloudKitClient, logger: Logger,
        backoff: SyncBackoff = SyncBackoff(),
        concurrency: Int = CloudKitClient.maxConcurrentRequests
    ) {
        self.store = store
        self.client = client
        self.logger = logger
        self.backoff = backoff
        self.concurrency = max(1, concurrency)
    }

    /// Runs until everything due is uploaded, the remote fails, or `deadline` passes. Its SQLite
    /// work blocks: run it on a thread of its own (`PipelineThread`), where it awaits CloudKit.
    package func run(until deadline: ContinuousClock.Instant? = nil) async throws(StoreError)
        -> ResyncReport
    {
        let started = ContinuousClock.now
        var report = ResyncReport()
        do {
            report.pendingBefore = try store.pendingSyncCounts()
            let bookkeeping = SyncBookkeeping(store: store)
            tables: for table in SyncTable.allCases {
                if let stop = try await uploadTable(
                    table, until: deadline, bookkeeping: bookkeeping,
                    started: started, report: &report)
                {
                    report.stop = stop
                    break tables
                }
                if table == .families,
                    let stop = try await releaseGivenUpClaims(until: deadline, report: &report)
                {
                    report.stop = stop
                    break tables
                }
            }
            try tally(&report, bookkeeping: bookkeeping)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .writing(error, store: store.path)
        }
        report.durationSeconds = (ContinuousClock.now - started).seconds
        return report
    }

    /// What the run leaves: pending and set-aside counts, the families listed, and the last
    /// success (this run's, when nothing stopped it).
    private func tally(_ report: inout ResyncReport, bookkeeping: SyncBookkeeping) throws {
        report.pending = try store.pendingSyncCounts()
        let counts = try bookkeeping.queue.counts()
        report.quarantined = counts.quarantined
        report.conflicts = counts.conflicts
        report.waiting = counts.retrying
        report.blocked = try bookkeeping.queue.blockedMemberships()
        let held = try bookkeeping.queue.heldBackRecords(limit: ResyncReport.listedSetAsideLimit)
        (report.heldBack, report.unfinishedCreations, report.unfinishedCreationIds) = (
            held.records, held.unfinished, held.unfinishedIDs
        )
        report.awaitingInvitedAdmin = try store.familiesAwaitingInvitedAdmin(limit: 0).count
        if counts.quarantined + counts.conflicts > 0 {
            let setAside = try bookkeeping.queue.entries().filter {
                $0.status != SyncStatus.retrying.rawValue
            }
            report.nameConflicts = setAside.count { $0.nameTaken }
            report.setAside = Array(setAside.prefix(ResyncReport.listedSetAsideLimit))
        }
        if report.exitKind == .success { try bookkeeping.queue.setLastSuccess(.now) }
        report.lastSuccess = try bookkeeping.queue.lastSuccess()
    }
}
