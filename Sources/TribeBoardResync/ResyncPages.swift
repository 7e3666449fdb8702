import Foundation
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardSupport

extension Resyncer {
    /// Every due page of one table, up to `concurrency` pages in flight: pages of one table are
    /// independent (tables go in order: references need their targets), so a far container costs
    /// round trips side by side, not one after the other. Each page settles its own records; a page
    /// that must stop the run lets the pages in flight finish and starts no more.
    func uploadTable(
        _ table: SyncTable, until deadline: ContinuousClock.Instant?, bookkeeping: SyncBookkeeping,
        started: ContinuousClock.Instant, report: inout ResyncReport
    ) async throws -> ResyncReport.Stop? {
        var after = ""
        var exhausted = false
        var stop: ResyncReport.Stop?
        var totals = ResyncReport()
        try await withThrowingTaskGroup(of: PageResult.self) { group in
            var inFlight = 0
            while true {
                while !exhausted, stop == nil, inFlight < concurrency {
                    if let deadline, ContinuousClock.now >= deadline {
                        stop = .deadline
                        break
                    }
                    let rows = try bookkeeping.queue.duePage(
                        table, after: after, now: .now,
                        limit: CloudKitClient.maxOperationsPerRequest)
                    guard !rows.isEmpty else {
                        exhausted = true
                        break
                    }
                    after = rows.last?.row.id ?? after
                    let page = try prepare(
                        rows, table: table, bookkeeping: bookkeeping, report: &totals)
                    group.addTask {
                        try await self.upload(page, table: table, bookkeeping: bookkeeping)
                    }
                    inFlight += 1
                }
                guard inFlight > 0, let done = try await group.next() else { break }
                inFlight -= 1
                totals.add(done.report)
                onProgress(
                    WorkProgress(
                        processed: report.synced + report.failed + totals.synced + totals.failed,
                        total: report.pendingBefore.total, failed: report.failed + totals.failed,
                        since: started))
                if stop == nil { stop = done.stop }
            }
        }
        report.add(totals)
        return stop
    }

    /// A page's records and families, decoded from their rows (which stay on this thread).
    struct Page: Sendable {
        var pending: [Upload] = []
        var families: [DueFamily] = []
    }

    /// What one page did, and why the run must stop, if it must.
    struct PageResult: Sendable {
        var report: ResyncReport
        var stop: ResyncReport.Stop?
    }

    /// Decodes a page's rows; a row the store cannot give back as a record is set aside here.
    func prepare(
        _ rows: [DueRecord], table: SyncTable, bookkeeping: SyncBookkeeping,
        report: inout ResyncReport
    ) throws -> Page {
        var page = Page()
        for due in rows {
            switch due.record {
            case .success(let record):
                // A record the app would refuse (its decoder, its validators) is set aside, not
                // sent.
                let appRecord: CloudKitRecord
                switch record.appRecord {
                case .success(let checked): appRecord = checked
                case .failure(let refusal):
                    try bookkeeping.record(
                        .quarantine(error: refusal.localizedDescription), row: due.row, at: .now)
                    report.failed += 1
                    continue
                }
                // A family is decoded once: its code is checked remotely before its record goes up.
                if case .family(let family) = record {
                    page.families.append(DueFamily(family: family, read: due.row))
                }
                page.pending.append(Upload(record: appRecord, read: due.row))
            case .failure(let error):
                // A row the store cannot give back as a record (a damaged date, an unknown role)
                // is set aside with the column at fault instead of being skipped, and pending,
                // forever.
                let reason = "the local row cannot be read as a \(table.rawValue) record: \(error.localizedDescription)"
                try bookkeeping.record(.quarantine(error: reason), row: due.row, at: .now)
                report.failed += 1
            }
        }
        return page
    }
}
