import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

package enum AuditError: Error, LocalizedError {
    case store(StoreError)
    case snapshot(SnapshotError)
    case remote(CloudKitError)
    case export(FileSystemError)
    /// `--repair --apply` did not finish: not applied, or applied to the store only (`.incomplete`).
    case repair(CodeRepairError)
    /// The remote read ended on an error of no known kind: the audit has no result.
    case scanStopped(reason: String)

    package var errorDescription: String? {
        switch self {
        case .store(let error): return error.localizedDescription
        case .snapshot(let error): return error.localizedDescription
        case .remote(let error): return "cannot read CloudKit: \(error.localizedDescription)"
        case .export(let error): return "cannot write the snapshot: \(error.localizedDescription)"
        case .repair(let error): return error.localizedDescription
        case .scanStopped(let reason): return "the audit stopped without a result: \(reason)"
        }
    }
}

/// Answers "is every family code unique and valid everywhere, and does every family look
/// complete?" for a local store and, optionally, the remote (live or a snapshot).
///
/// Streams both sides: the local scan runs on a thread of its own while the remote is read on the
/// audit's, and only ids and codes are held (names and dates are fetched for the families a
/// finding names). It blocks (SQLite, files): run it on a `PipelineThread`.
package struct Auditor: Sendable {
    let request: AuditRequest
    let logger: Logger

    package init(request: AuditRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    /// The audit, what it found, and the repair when one was asked for.
    package func run() async throws(AuditError) -> AuditReport {
        let (report, remoteFailure) = try await runKeepingStoreFindings()
        if let remoteFailure { throw remoteFailure }
        return report
    }

    /// The audit; when the remote read fails, the store's own findings still, with the failure
    /// beside them (a repair is never made from half the picture: it throws).
    package func runKeepingStoreFindings() async throws(AuditError) -> (report: AuditReport, remoteFailure: AuditError?) {
        let started = ContinuousClock.now
        let store: ReadOnlyStore
        do {
            store = try TribeBoardStore.openReadOnly(at: request.storePath)
        } catch {
            throw .store(error)
        }
        let queries = LocalAuditQueries(store: store)
        let (localScan, read, remoteFailure) = try await scanBothSides(queries)
        if let remoteFailure, request.repair != .none { throw remoteFailure }
        // A snapshot file the operator named that cannot be read is a mistake in the command, not
        // CloudKit's trouble: it stops the run as before (66, the error document).
        if case .snapshot? = remoteFailure, let remoteFailure { throw remoteFailure }
        // A read that failed part way is no picture of the remote: the store is audited alone.
        let remote = remoteFailure == nil ? read : RemoteFamilyIndex(sampleLimit: request.sampleLimit, expectedRecords: 0)
        var report = AuditReport(store: request.storePath,
                                 uploadCommand: Advice.resync(store: request.storePath, remote: request.adviceFlags).command)
        report.remoteNotRead = remoteFailure?.localizedDescription
        report.scanned.localFamilies = localScan.index.codes.entries.count
        report.scanned.remoteRecords = remote.recordCounts
        report.scanned.remote = describeRemote()
        do {
            try await addFindings(to: &report, localScan: localScan, remote: remote, remoteRead: remoteFailure == nil,
                                  store: store, queries: queries)
        } catch let error as CodeRepairError {
            throw .repair(error)
        } catch let error as CloudKitError {
            throw .remote(error)
        } catch {
            throw .store(.reading(error, store: request.storePath))
        }
        report.durationSeconds = (ContinuousClock.now - started).seconds
        return (report, remoteFailure)
    }

    /// Every check's findings, sorted, and the repair when one was asked for. `remoteRead`: the
    /// remote was read whole (families missing from it are looked for only then).
    private func addFindings(to report: inout AuditReport, localScan: LocalScan, remote: RemoteFamilyIndex,
                             remoteRead: Bool, store: ReadOnlyStore, queries: LocalAuditQueries) async throws {
        let local = localScan.index
        let check = CodeCrossCheck(local: local, remote: remote, repaired: try queries.repairedCodes())
        let findings = FindingBuilder(request: request, queries: queries)
        let groups = try findings.named(check.duplicateGroups())
        for group in groups { report.add(findings.duplicate(group)) }
        for member in try findings.named(check.formatViolations()) { report.add(findings.formatViolation(member)) }
        addRemoteRecordFindings(remote, findings: findings, to: &report)
        let copies = check.remoteCopies(sampleLimit: request.sampleLimit)
        report.awaitingResync = copies.awaitingResync
        for (entry, localCode) in copies.differs { report.add(findings.codeDiffers(entry, localCode: localCode)) }
        let missing = remoteRead ? try await missingFamilies(local: local, remote: remote, queries: queries)
            : MissingRemoteCheck.Outcome()
        try addMissingFindings(missing, remote: remote, findings: findings, queries: queries, to: &report)
        for family in localScan.withoutAdmin { report.add(findings.noParentAdmin(family)) }
        report.awaitingInvitedAdmin = localScan.awaitingInvitedAdmin
        for pair in localScan.registeredTwice { report.add(findings.registeredTwice(pair)) }
        let stale = localScan.stale
        if stale.count > 0 { report.add(findings.stalePending(stale.sample, count: stale.count)) }
        if copies.remoteOnlyCount > 0 { report.add(findings.remoteOnly(copies.remoteOnly, count: copies.remoteOnlyCount)) }
        let kept = try store.legacySourcesKept()
        report.legacyKept = remote.legacyNames.values.reduce(0) { $0 + $1.count { kept.contains($0.string) } }
        for finding in findings.legacy(remote, migrated: check.migratedLegacyCounts(excluding: kept), kept: kept) {
            report.add(finding)
        }
        for finding in try await claimFindings(store: store, builder: findings) { report.add(finding) }
        report.sortFindings()
        report.repair = try await repair(groups, reupload: missing.missing, local: local, remote: remote)
    }

    /// What the remote read itself shows: lines and records that cannot be used, names repeated.
    private func addRemoteRecordFindings(_ remote: RemoteFamilyIndex, findings: FindingBuilder,
                                         to report: inout AuditReport) {
        for line in remote.malformed { report.add(findings.malformed(line, total: remote.malformedCount)) }
        for record in remote.withoutCode { report.add(findings.withoutCode(record)) }
        for finding in findings.repeatedNames(remote) { report.add(finding) }
        for record in remote.invalidValues { report.add(findings.invalidValue(record, total: remote.invalidValueCount)) }
        if remote.nameless > 0 { report.add(findings.nameless(count: remote.nameless)) }
    }

    /// Families the store marks uploaded that the remote does not hold.
    private func addMissingFindings(_ missing: MissingRemoteCheck.Outcome, remote: RemoteFamilyIndex,
                                    findings: FindingBuilder, queries: LocalAuditQueries,
                                    to report: inout AuditReport) throws {
        if missing.unconfirmed > 0 {
            logger.notice("""
                families marked uploaded but not in the remote read, not confirmed gone (uploaded too \
                recently, or not looked up)
                """, metadata: ["families": "\(missing.unconfirmed)"])
        }
        guard !missing.missing.isEmpty else { return }
        let shown = request.sampleLimit.map { Array(missing.missing.prefix($0)) } ?? missing.missing
        let remoteEmpty = (remote.recordCounts[RecordMapping.familyType] ?? 0) == 0
            && RecordMapping.legacyTypes.allSatisfy { (remote.recordCounts[$0] ?? 0) == 0 }
        report.add(findings.missingRemote(missing, details: try queries.details(of: shown), live: request.isLive,
                                          remoteEmpty: remoteEmpty))
    }

    /// Live audits: orphan and foreign claims among those the store remembers (`OrphanClaims`);
    /// an applied repair releases our orphans.
    private func claimFindings(store: ReadOnlyStore, builder: FindingBuilder) async throws -> [AuditFinding] {
        guard case .live(let client, _)? = request.remote else { return [] }
        var releasing: TribeBoardStore?
        if case .apply = request.repair { releasing = try TribeBoardStore.open(at: request.storePath) }
        return builder.orphanClaims(try await OrphanClaims(client: client, store: store, releasing: releasing).run())
    }

    /// Uploaded families the remote read did not see, confirmed gone (none without a remote).
    private func missingFamilies(local: LocalFamilyIndex, remote: RemoteFamilyIndex,
                                 queries: LocalAuditQueries) async throws -> MissingRemoteCheck.Outcome {
        let check = MissingRemoteCheck(local: local, remote: remote)
        switch request.remote {
        case nil: return MissingRemoteCheck.Outcome()
        case .live(let client, _)?:
            let candidates = check.candidates()
            guard !candidates.isEmpty else { return MissingRemoteCheck.Outcome() }
            return try await check.confirmLive(candidates, client: client)
        case .snapshot(let path)?:
            let candidates = check.candidates()
            guard !candidates.isEmpty else { return MissingRemoteCheck.Outcome() }
            let details = try queries.details(of: candidates)
            return MissingRemoteCheck.confirmFromSnapshot(candidates, snapshotWritten: MissingRemoteCheck.modificationDate(ofSnapshot: path)) {
                details[$0]?.lastSyncDate?.date
            }
        }
    }

    private func repair(_ groups: [DuplicateGroup], reupload: [String], local: LocalFamilyIndex,
                        remote: RemoteFamilyIndex) async throws -> CodeRepairReport? {
        var plan = CodeRepairPlanner(request: request).plan(groups)
        plan.reupload = reupload
        switch request.repair {
        case .none: return nil
        case .propose: return plan
        case .apply(let outputDirectory):
            // New codes avoid every code either side holds, in any case (keys are upper-cased).
            var known = Set(local.codes.keys)
            known.formUnion(remote.codes.keys)
            // Against a live container the new codes are claimed first; from a snapshot, resync claims them.
            var client: CloudKitClient?
            if case .live(let live, _)? = request.remote { client = live }
            var applied = try await CodeRepairApplier(request: request, outputDirectory: outputDirectory, logger: logger)
                .apply(plan, avoiding: known, client: client)
            try markForReupload(reupload, in: &applied)
            return applied
        }
    }

    /// After the code changes: the families CloudKit lost go up again with the next resync. A
    /// failure here leaves the code changes (if any) done: the same repair again finishes.
    private func markForReupload(_ ids: [String], in report: inout CodeRepairReport) throws(CodeRepairError) {
        guard !ids.isEmpty else { return }
        do {
            let marked = try TribeBoardStore.open(at: request.storePath).markForReupload(familyIDs: ids.map(FamilyID.init(rawValue:)))
            report.reupload = marked.map(\.rawValue)
            report.applied = true
            logger.notice("marked for upload again", metadata: ["families": "\(marked.count)"])
        } catch {
            throw report.applied ? .incomplete(.store(error)) : .store(error)
        }
    }

    /// What the local side's thread reads.
    struct LocalScan: Sendable {
        var index: LocalFamilyIndex
        var withoutAdmin: [AuditFamily]
        var awaitingInvitedAdmin: Int
        var registeredTwice: [RegisteredTwice]
        var stale: (count: Int, sample: [AuditFamily])
    }

    /// The local scan on a thread of its own, the remote read on this one.
    private func scanBothSides(_ queries: LocalAuditQueries) async throws(AuditError) -> (LocalScan, RemoteFamilyIndex, AuditError?) {
        let cutoff = Date().addingTimeInterval(-request.staleAfter)
        let sampleLimit = request.sampleLimit
        let localScan = PipelineThread.start(name: "tribeboard.audit.local") { () throws -> LocalScan in
            LocalScan(index: try queries.scanFamilies(), withoutAdmin: try queries.familiesWithoutAdmin(),
                      awaitingInvitedAdmin: try queries.familiesAwaitingInvitedAdmin(),
                      registeredTwice: try queries.familiesRegisteredTwice(),
                      stale: try queries.stalePendingFamilies(before: cutoff, limit: sampleLimit))
        }
        var remote = RemoteFamilyIndex(sampleLimit: request.sampleLimit, expectedRecords: expectedRemoteRecords())
        var remoteFailure: AuditError?
        if let source = request.remote {
            do {
                try await RemoteReading(source: source, logger: logger).read({ remote.add($0) }, malformed: { remote.add($0) })
            } catch let error as SnapshotError {
                remoteFailure = .snapshot(error)
            } catch let error as CloudKitError {
                remoteFailure = .remote(error)
            } catch let error as FileSystemError {
                remoteFailure = .export(error)
            } catch {
                remoteFailure = .scanStopped(reason: error.readableDescription)
            }
        }
        // The local scan is awaited even when the remote failed: no thread outlives the audit.
        let local = await localScan.result
        switch local {
        case .success(let scan): return (scan, remote, remoteFailure)
        case .failure(let error): throw .store(TribeBoardStore.classify(error, path: request.storePath))
        }
    }

    /// About 300 bytes a record line in a snapshot (a million-record export is 316 MB); nothing to
    /// go by for a live read.
    private func expectedRemoteRecords() -> Int {
        guard case .snapshot(let path)? = request.remote, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int else {
            return 0
        }
        return min(size / 300, 50_000_000)
    }

    private func describeRemote() -> String {
        switch request.remote {
        case .snapshot(let path)?: return "snapshot \(path)"
        case .live(let client, let export)?:
            let configuration = client.configuration
            return "CloudKit \(configuration.container) (\(configuration.environment.rawValue), \(configuration.database.rawValue))"
                + (export.map { ", saved to \($0)" } ?? "")
        case nil: return "none"
        }
    }
}
