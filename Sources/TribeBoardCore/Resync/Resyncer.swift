import Foundation
import GRDB
import Logging

/// Uploads every record waiting for sync: families, then user profiles, then memberships
/// (references need their targets), 200 per request, every per-record result read.
///
/// - Idempotent: a create answered EXISTS for a record identical to ours is a success (the upload
///   happened, the local mark did not, e.g. after a kill -9).
/// - A family whose code was never checked remotely is checked first; a code another remote record
///   holds is a conflict: the family is not uploaded and nothing remote is overwritten.
/// - Failed records wait with backoff across runs; permanent failures are quarantined, so one bad
///   record neither blocks the rest nor is retried forever.
public struct Resyncer: Sendable {
    let store: TribeBoardStore
    let client: CloudKitClient
    let logger: Logger
    let backoff: SyncBackoff

    public init(store: TribeBoardStore, client: CloudKitClient, logger: Logger, backoff: SyncBackoff = SyncBackoff()) {
        self.store = store
        self.client = client
        self.logger = logger
        self.backoff = backoff
    }

    /// Runs until everything due is uploaded, the remote fails, or `deadline` passes.
    public func run(until deadline: ContinuousClock.Instant? = nil) throws(StoreError) -> ResyncReport {
        let started = ContinuousClock.now
        var report = ResyncReport()
        do {
            report.pendingBefore = try store.pendingSyncCounts()
            let bookkeeping = SyncBookkeeping(store: store)
            tables: for table in SyncTable.allCases {
                var after = ""
                while true {
                    if let deadline, ContinuousClock.now >= deadline {
                        report.stop = .deadline
                        break tables
                    }
                    let rows = try bookkeeping.duePage(table, after: after, now: StoreTimestamp.format(Date()),
                                                       limit: CloudKitClient.maxOperationsPerRequest)
                    guard let last = rows.last else { break }
                    after = last["id"]
                    if let stop = try upload(rows, table: table, bookkeeping: bookkeeping, report: &report) {
                        report.stop = stop
                        break tables
                    }
                }
            }
            report.pending = try store.pendingSyncCounts()
            let counts = try bookkeeping.counts()
            report.quarantined = counts.quarantined
            report.conflicts = counts.conflicts
            report.waiting = counts.retrying
            report.blocked = try bookkeeping.blockedMemberships()
            if report.exitKind == .success { try bookkeeping.setLastSuccess(StoreTimestamp.format(Date())) }
            report.lastSuccess = try bookkeeping.lastSuccess()
        } catch let error as StoreError {
            throw error
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
        report.durationSeconds = (ContinuousClock.now - started).seconds
        return report
    }

    /// One page: check codes, upload, settle each result. Returns why the run must stop, if it must.
    private func upload(_ rows: [Row], table: SyncTable, bookkeeping: SyncBookkeeping,
                        report: inout ResyncReport) throws -> ResyncReport.Stop? {
        var records: [CloudKitRecord] = []
        for row in rows {
            if let record = PendingRecords.record(table, row: row) {
                records.append(record)
            } else {
                // A row the store cannot give back as a record (a damaged date, an unknown role)
                // is set aside with its reason instead of being skipped, and pending, forever.
                try bookkeeping.record(.quarantine(error: "the local row cannot be read as a \(table.rawValue) record (a date or value is malformed)"),
                                       table: table, id: row["id"], at: Date())
                report.failed += 1
            }
        }
        if table == .families {
            switch checkCodes(rows, bookkeeping: bookkeeping, report: &report) {
            case .failure(let error): return .remote(error)
            case .success(let conflicted): records.removeAll { conflicted.contains($0.recordName) }
            }
        }
        guard !records.isEmpty else { return nil }
        report.requests += 1
        let client = client
        let operations = records.map { CloudKitOperation(.create, $0) }
        let results: [CloudKitRecordResult]
        switch BlockingBridge.run({ () async throws(CloudKitError) in try await client.modify(operations) }) {
        case .failure(let error): return .remote(error)
        case .success(let value): results = value
        }
        var synced: [String] = []
        var existing: [CloudKitRecord] = []
        var updates: [CloudKitRecord] = []
        let now = Date()
        for (record, result) in zip(records, results) {
            switch result {
            case .record: synced.append(record.recordName)
            case .failure(let error) where error.code == .exists: existing.append(record)
            case .failure(let error):
                if error.code.category == .configuration { return .remote(.service(code: error.code, httpStatus: 0, reason: error.reason ?? "", retryAfter: nil)) }
                try bookkeeping.record(outcome(for: error), table: table, id: record.recordName, at: now)
                report.failed += 1
            }
        }
        if !existing.isEmpty {
            report.requests += 1
            let names = existing.map(\.recordName)
            switch BlockingBridge.run({ () async throws(CloudKitError) in try await client.lookup(recordNames: names) }) {
            case .failure(let error): return .remote(error)
            case .success(let remote):
                let repaired = table == .families ? try bookkeeping.repairedCodes(familyIDs: names) : [:]
                for (ours, theirs) in zip(existing, remote) {
                    if case .record(let found) = theirs, PendingRecords.sameContent(ours, found) {
                        synced.append(ours.recordName)
                    } else if case .record(let found) = theirs, let update = Self.repairUpdate(ours, theirs: found, repaired: repaired) {
                        updates.append(update)
                    } else {
                        try bookkeeping.record(.conflict(with: ours.recordName, error: "a different record with this name is already in CloudKit"),
                                               table: table, id: ours.recordName, at: now)
                        report.failed += 1
                    }
                }
            }
        }
        if !updates.isEmpty {
            report.requests += 1
            switch uploadRepairs(updates, table: table, bookkeeping: bookkeeping, report: &report) {
            case .failure(let error): return .remote(error)
            case .success(let done): synced += done
            }
        }
        try bookkeeping.markSynced(table, ids: synced, at: StoreTimestamp.format(now))
        report.synced += synced.count
        return nil
    }

    /// Codes never checked remotely are looked up first. Returns the families set aside as conflicts.
    private func checkCodes(_ rows: [Row], bookkeeping: SyncBookkeeping, report: inout ResyncReport) -> Result<Set<String>, CloudKitError> {
        let unverified = rows.filter { ($0["code_verified_remotely_at"] as String?) == nil }
        guard !unverified.isEmpty else { return .success([]) }
        let codes = unverified.map { $0["code"] as String }
        // One query per record type (Family, legacy CKFamily) per 200 codes.
        report.requests += 2 * ((codes.count + RemoteCodeCheck.codesPerQuery - 1) / RemoteCodeCheck.codesPerQuery)
        let check = RemoteCodeCheck(client: client, logger: logger)
        guard let holders = check.holders(of: codes) else {
            return .failure(check.failure ?? .network(reason: "CloudKit could not be asked"))
        }
        var conflicted = Set<String>()
        var verified: [String] = []
        do {
            for row in unverified {
                let id: String = row["id"]
                let code: String = row["code"]
                if let holder = holders[code], holder != id {
                    conflicted.insert(id)
                    report.failed += 1
                    try bookkeeping.record(.conflict(with: holder, error: "family \(holder) in CloudKit already has this code"),
                                           table: .families, id: id, at: Date())
                    logger.warning("code conflict: not uploaded", metadata: ["family": "\(id)", "code": "\(FamilyCode.mask(code))", "remote": "\(holder)"])
                } else {
                    verified.append(id)
                }
            }
            try bookkeeping.markVerified(familyIDs: verified, at: StoreTimestamp.format(Date()))
        } catch {
            return .failure(.unexpectedResponse(httpStatus: 0, detail: "store: \(error)"))
        }
        return .success(conflicted)
    }

    /// What a per-record error means for that record.
    func outcome(for error: CloudKitRecordError) -> SyncBookkeeping.Outcome {
        let message = "\(error.serverErrorCode): \(error.reason ?? "no reason given")"
        switch error.code {
        case .throttled, .tryAgainLater, .internalError, .validatingReferenceError:
            // A missing reference target may still arrive (its family is pending or retrying).
            return .retry(error: message, backoff: backoff)
        default:
            return .quarantine(error: message)
        }
    }
}
