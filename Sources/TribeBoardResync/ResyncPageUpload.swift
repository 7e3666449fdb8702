import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore

extension Resyncer {
    /// One page: check codes, claim them, upload, settle each result by record name. Store
    /// failures are thrown as they are (exit 74), never dressed as CloudKit's.
    func upload(_ page: Page, table: SyncTable, bookkeeping: SyncBookkeeping) async throws
        -> PageResult
    {
        var report = ResyncReport()
        let stop = try await upload(page, table: table, bookkeeping: bookkeeping, report: &report)
        return PageResult(report: report, stop: stop)
    }

    func upload(_ page: Page, table: SyncTable, bookkeeping: SyncBookkeeping,
                report: inout ResyncReport) async throws -> ResyncReport.Stop? {
        var pending = page.pending
        var claimProblem: String?
        if table == .families {
            switch try await checkAndClaimCodes(page.families, pending: &pending, bookkeeping: bookkeeping,
                                                report: &report) {
            case .failure(let error): return ResyncReport.Stop(error)
            case .success(let problem): claimProblem = problem
            }
        }
        guard !pending.isEmpty else { return claimProblem.map { .unmatchedAnswer($0) } }
        report.requests += 1
        let results: [CloudKitRecordResult]
        do throws(CloudKitError) {
            results = try await client.modify(pending.map { CloudKitOperation(.create, $0.record) })
        } catch {
            return ResyncReport.Stop(error)
        }
        let answered = MatchedResults(
            asked: pending.map(\.record.recordName), results: results, operation: "records/modify")
        var synced: [PendingRow] = []
        var existing: [Upload] = []
        var updates: [Upload] = []
        let now = Timestamp.now
        if let stop = try sortAnswers(
            answered, pending: pending, table: table, bookkeeping: bookkeeping, at: now,
            synced: &synced, existing: &existing, report: &report)
        {
            return stop
        }
        var problem = claimProblem ?? answered.problem
        if !existing.isEmpty {
            report.requests += 1
            switch try await settleExisting(
                existing, table: table, bookkeeping: bookkeeping, at: now,
                synced: &synced, updates: &updates, report: &report)
            {
            case .failure(let error): return ResyncReport.Stop(error)
            case .success(let lookupProblem): problem = problem ?? lookupProblem
            }
        }
        if !updates.isEmpty {
            report.requests += 1
            switch try await uploadRepairs(updates, bookkeeping: bookkeeping, report: &report) {
            case .failure(let error): return ResyncReport.Stop(error)
            case .success(let done):
                synced += done.synced
                problem = problem ?? done.problem
            }
        }
        let marked = try bookkeeping.queue.markSynced(synced, at: now)
        if marked.count < synced.count {
            logger.notice("records changed locally while they were uploaded: they stay pending",
                          metadata: ["count": "\(synced.count - marked.count)"])
        }
        report.synced += marked.count
        return problem.map { .unmatchedAnswer($0) }
    }

    /// A page of families: codes checked, then claimed; those in conflict or not claimed leave
    /// `pending`. Succeeds with what the claims' answer left unmatched, if anything.
    func checkAndClaimCodes(
        _ families: [DueFamily], pending: inout [Upload],
        bookkeeping: SyncBookkeeping,
        report: inout ResyncReport
    ) async throws -> Result<String?, CloudKitError> {
        switch try await checkCodes(families, bookkeeping: bookkeeping, report: &report) {
        case .failure(let error): return .failure(error)
        case .success(let conflicted):
            pending.removeAll { conflicted.contains($0.record.recordName) }
        }
        // The claim is what makes the code the family's: checked by record name, current and
        // atomic.
        let unconflicted = families.filter { family in
            pending.contains { $0.read.id == family.read.id }
        }
        switch try await claimCodes(unconflicted, bookkeeping: bookkeeping, report: &report) {
        case .failure(let error): return .failure(error)
        case .success(let step):
            pending.removeAll { step.blocked.contains($0.record.recordName) }
            return .success(step.problem)
        }
    }
}
