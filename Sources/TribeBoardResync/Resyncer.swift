import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// Uploads every record waiting for sync: families, then user profiles, then memberships
/// (references need their targets), 200 per request, every per-record result read.
///
/// - Idempotent: a create answered EXISTS for a record identical to ours that this key created is a
///   success (the upload happened, the local mark did not, e.g. after a kill -9). Another
///   creator's identical record is not ours (only its creator may change or delete it, and the app
///   follows our claim only to a family we wrote): a name conflict, as a different record is.
/// - A family goes up only once CloudKit holds its code's claim for it (`CodeClaim`); a code
///   another family claimed, or (checked first, for families a claim-unaware app wrote) another
///   remote record holds, is a conflict: the family is not uploaded and nothing remote is overwritten.
/// - Failed records wait with backoff across runs; permanent failures are quarantined, so one bad
///   record neither blocks the rest nor is retried forever.
package struct Resyncer: Sendable {
    let store: TribeBoardStore
    let client: CloudKitClient
    let logger: Logger
    let backoff: SyncBackoff
    /// Pages of one table in flight at once (each a few requests; the client sends at most 4 at a time).
    let concurrency: Int
    /// Called after each page: records settled so far (uploaded or failed), of how many were
    /// pending at the start, and how many failed.
    package var onProgress: @Sendable (WorkProgress) -> Void = { _ in }

    package init(store: TribeBoardStore, client: CloudKitClient, logger: Logger, backoff: SyncBackoff = SyncBackoff(),
                 concurrency: Int = CloudKitClient.maxConcurrentRequests) {
        self.store = store
        self.client = client
        self.logger = logger
        self.backoff = backoff
        self.concurrency = max(1, concurrency)
    }

    /// Runs until everything due is uploaded, the remote fails, or `deadline` passes. Its SQLite
    /// work blocks: run it on a thread of its own (`PipelineThread`), where it awaits CloudKit.
    package func run(until deadline: ContinuousClock.Instant? = nil) async throws(StoreError) -> ResyncReport {
        let started = ContinuousClock.now
        var report = ResyncReport()
        do {
            report.pendingBefore = try store.pendingSyncCounts()
            let bookkeeping = SyncBookkeeping(store: store)
            tables: for table in SyncTable.allCases {
                if let stop = try await uploadTable(table, until: deadline, bookkeeping: bookkeeping,
                                                    started: started, report: &report) {
                    report.stop = stop
                    break tables
                }
                if table == .families, let stop = try await releaseGivenUpClaims(until: deadline, report: &report) {
                    report.stop = stop
                    break tables
                }
            }
            report.pending = try store.pendingSyncCounts()
            let counts = try bookkeeping.queue.counts()
            report.quarantined = counts.quarantined
            report.conflicts = counts.conflicts
            report.waiting = counts.retrying
            report.blocked = try bookkeeping.queue.blockedMemberships()
            let held = try bookkeeping.queue.heldBackRecords(limit: ResyncReport.listedSetAsideLimit)
            (report.heldBack, report.unfinishedCreations, report.unfinishedCreationIds) = (held.records, held.unfinished, held.unfinishedIDs)
            report.awaitingInvitedAdmin = try store.familiesAwaitingInvitedAdmin(limit: 0).count
            if counts.quarantined + counts.conflicts > 0 {
                let setAside = try bookkeeping.queue.entries().filter { $0.status != SyncStatus.retrying.rawValue }
                report.nameConflicts = setAside.count { $0.nameTaken }
                report.setAside = Array(setAside.prefix(ResyncReport.listedSetAsideLimit))
            }
            if report.exitKind == .success { try bookkeeping.queue.setLastSuccess(.now) }
            report.lastSuccess = try bookkeeping.queue.lastSuccess()
        } catch let error as StoreError {
            throw error
        } catch {
            throw .writing(error, store: store.path)
        }
        report.durationSeconds = (ContinuousClock.now - started).seconds
        return report
    }

    /// Every due page of one table, up to `concurrency` pages in flight: pages of one table are
    /// independent (tables go in order: references need their targets), so a far container costs
    /// round trips side by side, not one after the other. Each page settles its own records; a page
    /// that must stop the run lets the pages in flight finish and starts no more.
    private func uploadTable(_ table: SyncTable, until deadline: ContinuousClock.Instant?, bookkeeping: SyncBookkeeping,
                             started: ContinuousClock.Instant, report: inout ResyncReport) async throws -> ResyncReport.Stop? {
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
                    let rows = try bookkeeping.queue.duePage(table, after: after, now: .now,
                                                             limit: CloudKitClient.maxOperationsPerRequest)
                    guard !rows.isEmpty else {
                        exhausted = true
                        break
                    }
                    after = rows.last?.row.id ?? after
                    let page = try prepare(rows, table: table, bookkeeping: bookkeeping, report: &totals)
                    group.addTask { try await self.upload(page, table: table, bookkeeping: bookkeeping) }
                    inFlight += 1
                }
                guard inFlight > 0, let done = try await group.next() else { break }
                inFlight -= 1
                totals.add(done.report)
                onProgress(WorkProgress(processed: report.synced + report.failed + totals.synced + totals.failed,
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
    private func prepare(_ rows: [DueRecord], table: SyncTable, bookkeeping: SyncBookkeeping, report: inout ResyncReport) throws -> Page {
        var page = Page()
        for due in rows {
            switch due.record {
            case .success(let record):
                // A record the app would refuse (its decoder, its validators) is set aside, not sent.
                let appRecord: CloudKitRecord
                switch record.appRecord {
                case .success(let checked): appRecord = checked
                case .failure(let refusal):
                    try bookkeeping.record(.quarantine(error: refusal.localizedDescription), row: due.row, at: .now)
                    report.failed += 1
                    continue
                }
                // A family is decoded once: its code is checked remotely before its record goes up.
                if case .family(let family) = record { page.families.append(DueFamily(family: family, read: due.row)) }
                page.pending.append(Upload(record: appRecord, read: due.row))
            case .failure(let error):
                // A row the store cannot give back as a record (a damaged date, an unknown role)
                // is set aside with the column at fault instead of being skipped, and pending, forever.
                let reason = "the local row cannot be read as a \(table.rawValue) record: \(error.localizedDescription)"
                try bookkeeping.record(.quarantine(error: reason), row: due.row, at: .now)
                report.failed += 1
            }
        }
        return page
    }

    /// One page: check codes, claim them, upload, settle each result by record name. Store
    /// failures are thrown as they are (exit 74), never dressed as CloudKit's.
    private func upload(_ page: Page, table: SyncTable, bookkeeping: SyncBookkeeping) async throws -> PageResult {
        var report = ResyncReport()
        let stop = try await upload(page, table: table, bookkeeping: bookkeeping, report: &report)
        return PageResult(report: report, stop: stop)
    }

    private func upload(_ page: Page, table: SyncTable, bookkeeping: SyncBookkeeping,
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
        let answered = MatchedResults(asked: pending.map(\.record.recordName), results: results, operation: "records/modify")
        var synced: [PendingRow] = []
        var existing: [Upload] = []
        var updates: [Upload] = []
        let now = Timestamp.now
        if let stop = try sortAnswers(answered, pending: pending, table: table, bookkeeping: bookkeeping, at: now,
                                      synced: &synced, existing: &existing, report: &report) {
            return stop
        }
        var problem = claimProblem ?? answered.problem
        if !existing.isEmpty {
            report.requests += 1
            switch try await settleExisting(existing, table: table, bookkeeping: bookkeeping, at: now,
                                            synced: &synced, updates: &updates, report: &report) {
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
    private func checkAndClaimCodes(_ families: [DueFamily], pending: inout [Upload],
                                    bookkeeping: SyncBookkeeping,
                                    report: inout ResyncReport) async throws -> Result<String?, CloudKitError> {
        switch try await checkCodes(families, bookkeeping: bookkeeping, report: &report) {
        case .failure(let error): return .failure(error)
        case .success(let conflicted): pending.removeAll { conflicted.contains($0.record.recordName) }
        }
        // The claim is what makes the code the family's: checked by record name, current and atomic.
        let unconflicted = families.filter { family in pending.contains { $0.read.id == family.read.id } }
        switch try await claimCodes(unconflicted, bookkeeping: bookkeeping, report: &report) {
        case .failure(let error): return .failure(error)
        case .success(let step):
            pending.removeAll { step.blocked.contains($0.record.recordName) }
            return .success(step.problem)
        }
    }

    /// Each create's answer: uploaded, to look up (its name exists), or settled as failed. A
    /// refusal of the whole run's configuration stops it.
    private func sortAnswers(_ answered: MatchedResults, pending: [Upload], table: SyncTable,
                             bookkeeping: SyncBookkeeping, at now: Timestamp, synced: inout [PendingRow],
                             existing: inout [Upload], report: inout ResyncReport) throws -> ResyncReport.Stop? {
        for upload in pending {
            let (record, read) = (upload.record, upload.read)
            switch answered.byName[record.recordName] {
            case nil: continue
            case .record?: synced.append(read)
            // A create answered EXISTS, or CONFLICT (how native CloudKit reports "record to insert
            // already exists"; Web Services does not document which it sends): look it up and
            // compare, identical means an earlier run uploaded it before it was stopped.
            case .failure(let error)? where error.code == .exists || error.code == .conflict:
                existing.append(Upload(record: record, read: read))
            // A family's create refused for this record: another creator's record may hold its
            // name (an app user's): looked up like EXISTS, so that it is named as that.
            case .failure(let error)? where table == .families && Self.refusedForThisRecord(error):
                existing.append(Upload(record: record, read: read, refusal: error))
            case .failure(let error)? where error.code == .badRequest && error.reason.flatMap(CloudKitError.schemaProblem(in:)) != nil:
                // The container's schema refuses the record (not deployed to production): the whole
                // run's configuration, not this record's fault; it stays pending.
                let reason = error.reason ?? ""
                return .remote(.schema(CloudKitError.schemaProblem(in: reason) ?? .notDeployed, reason: reason))
            case .failure(let error)?:
                if error.code.category == .configuration && !Self.refusedForThisRecord(error) {
                    return .remote(.service(code: error.code, httpStatus: 0, reason: error.reason ?? "", retryAfter: nil))
                }
                try settle(error, row: read, bookkeeping: bookkeeping, at: now)
                report.failed += 1
            }
        }
        return nil
    }

    /// Creates whose name exists, looked up: the same record (an earlier run's upload), ours to
    /// repair (`updates`), or a conflict. Succeeds with what the lookup left unmatched, if anything.
    private func settleExisting(_ existing: [Upload], table: SyncTable, bookkeeping: SyncBookkeeping,
                                at now: Timestamp, synced: inout [PendingRow], updates: inout [Upload],
                                report: inout ResyncReport) async throws -> Result<String?, CloudKitError> {
        let names = existing.map(\.record.recordName)
        let remote: [CloudKitRecordResult]
        do throws(CloudKitError) {
            remote = try await client.lookup(recordNames: names)
        } catch {
            return .failure(error)
        }
        let found = MatchedResults(asked: names, results: remote, operation: "records/lookup")
        // Who this key is, to tell its own earlier upload from another creator's copy
        // (Apple: compare `created.userRecordName` with users/caller); asked once per run.
        let caller: String
        do throws(CloudKitError) {
            caller = try await ClaimCaller.name(of: client, requests: &report.requests)
        } catch {
            return .failure(error)
        }
        let repaired = table == .families
            ? try store.replacedCodes(of: names.map(FamilyID.init(rawValue:))) : [:]
        for upload in existing {
            let (ours, read) = (upload.record, upload.read)
            guard let theirs = found.byName[ours.recordName] else { continue }
            if let refusal = upload.refusal, case .failure = theirs {
                try settle(refusal, row: read, bookkeeping: bookkeeping, at: now)
                report.failed += 1
            } else if case .record(let remoteRecord) = theirs, PendingRecords.sameContent(ours, remoteRecord),
                      remoteRecord.created?.userRecordName == caller {
                synced.append(read)
            } else if case .record(let remoteRecord) = theirs,
                      let update = Self.repairUpdate(ours, theirs: remoteRecord, repaired: repaired) {
                updates.append(Upload(record: update, read: read))
            } else {
                // Conflicting with its own name: the distinct kind (`ResyncListEntry.nameTaken`)
                // that adopt closes, not a code another family holds.
                try bookkeeping.record(.conflict(with: ours.recordName, error: Self.nameTaken(theirs)), row: read, at: now)
                report.failed += 1
            }
        }
        return .success(found.problem)
    }

    /// Codes never checked remotely are looked up first. Returns the families set aside as conflicts.
    private func checkCodes(_ families: [DueFamily], bookkeeping: SyncBookkeeping,
                            report: inout ResyncReport) async throws -> Result<Set<String>, CloudKitError> {
        let unverified = families.filter { $0.family.codeVerifiedRemotelyAt == nil }
        guard !unverified.isEmpty else { return .success([]) }
        let codes = unverified.map(\.family.code)
        // One query per record type (Family, legacy CKFamily) per 200 codes.
        report.requests += 2 * ((codes.count + RemoteCodeCheck.codesPerQuery - 1) / RemoteCodeCheck.codesPerQuery)
        let check = RemoteCodeCheck(client: client, logger: logger)
        guard let holders = await check.holders(of: codes) else {
            return .failure(check.failure ?? .network(reason: "CloudKit could not be asked"))
        }
        var conflicted = Set<String>()
        var verified: [PendingRow] = []
        for due in unverified {
            let (family, read) = (due.family, due.read)
            let code = family.code
            if let holder = holders[code], holder != read.id {
                conflicted.insert(read.id)
                report.failed += 1
                try bookkeeping.record(.conflict(with: holder, error: "family \(holder) in CloudKit already has this code"), row: read, at: .now)
                logger.warning("code conflict: not uploaded",
                               metadata: ["family": "\(read.id)", "code": "\(FamilyCode.mask(code))", "remote": "\(holder)"])
            } else {
                verified.append(read)
            }
        }
        try bookkeeping.queue.markVerified(verified, at: .now)
        return .success(conflicted)
    }

    /// What a per-record error means for that record.
    func outcome(for error: CloudKitRecordError, table: SyncTable? = nil) -> SyncBookkeeping.Outcome {
        let message = "\(error.serverErrorCode): \(error.reason ?? "no reason given")"
        switch error.code {
        case .throttled, .tryAgainLater:
            // CloudKit's load, not the record's fault: it waits what CloudKit asked of it (or the
            // backoff, up to 6 hours), and is never quarantined for it.
            return .retry(error: message, backoff: backoff, retryAfter: error.retryAfter, limited: false)
        case .internalError, .validatingReferenceError:
            // A missing reference target may still arrive (its family is pending or retrying);
            // past the limit, a person looks at it.
            return .retry(error: message, backoff: backoff, retryAfter: error.retryAfter)
        case .accessDenied:
            return .quarantine(error: message + accessDeniedAdvice(recordID: error.recordName ?? "ID", table: table))
        default:
            return .quarantine(error: message)
        }
    }

    func accessDeniedAdvice(recordID: String, table: SyncTable?) -> String {
        let creatorOnly = " (the security roles let only a record's creator change it, and this CloudKit record was not created by this key:"
            + " an app user's, or another container's developer; nothing was overwritten."
        // A family: releasing it would be refused again; adopt takes CloudKit's version.
        guard table != .families else {
            let adopt = Advice.adopt(store: store.path, familyID: FamilyID(rawValue: recordID),
                                     remote: client.configuration.adviceFlags, apply: false).command
            return creatorOnly + " `\(adopt)`"
                + " shows both versions and takes CloudKit's with --apply)"
        }
        let release = Advice.resyncRelease(store: store.path, recordID: recordID).command
        return creatorOnly + " Decide which version is right, then `\(release)` to try again)"
    }

    /// Why a record under our name is not ours to overwrite, naming who wrote it when CloudKit says.
    static func nameTaken(_ theirs: CloudKitRecordResult) -> String {
        guard case .record(let record) = theirs, let creator = record.created?.userRecordName else {
            return "a different record with this name is already in CloudKit"
        }
        return "a different record with this name is already in CloudKit, created by \(creator)"
    }

    /// A per-record ACCESS_DENIED for changing one existing record is that record's problem (the
    /// public database's default roles: only its creator writes it); the run goes on without it.
    /// A refused CREATE is the record type's security roles, every record's problem: configuration.
    static func refusedForThisRecord(_ error: CloudKitRecordError) -> Bool {
        error.code == .accessDenied && error.reason?.localizedCaseInsensitiveContains("CREATE operation") != true
    }

    /// Records a per-record failure; a refused write is also said on stderr, as it needs a person.
    func settle(_ error: CloudKitRecordError, row: PendingRow, bookkeeping: SyncBookkeeping, at now: Timestamp) throws {
        let outcome = outcome(for: error, table: row.table)
        if case .quarantine(let message) = outcome, error.code == .accessDenied {
            logger.warning("record quarantined: CloudKit refused the write",
                           metadata: ["table": "\(row.table.rawValue)", "id": "\(row.id)", "error": "\(message)"])
        }
        try bookkeeping.record(outcome, row: row, at: now)
    }
}
