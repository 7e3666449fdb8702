import Foundation
import TribeBoardCloudKit
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote
import TribeBoardDomain

/// The writing half of a migration: kind by kind (families, then profiles, then memberships, so
/// every reference has its target), 200 records a request, each batch checkpointed before it is
/// sent and recorded with the store's new rows after; then the QR codes of re-coded families, the
/// verification, and the deletion of verified legacy sources.
struct MigrationApply {
    let migrator: Migrator
    let store: TribeBoardStore
    let checkpoint: MigrationCheckpoint

    private var request: MigrationRequest { migrator.request }
    private var destination: CloudKitClient { migrator.endpoints.destination }

    func run(_ items: inout [MigrationItem], report: inout MigrationReport) async throws {
        do {
            try await copy(&items, report: &report)
            migrator.logger.info("copied")
            try writeQRCodes(items)
            report.codesFile = try MigrationCodesFile.write(items, to: request.outputDirectory)
            migrator.logger.info("QR codes written")
            report.verification = try await verify(&items)
            migrator.logger.info("verified")
            if request.deleteSource { try await deleteSources(&items, report: &report) }
        } catch let error as CloudKitError {
            // The checkpoint keeps what was done; what was not attempted says so.
            report.stoppedBy = error.localizedDescription
            report.stopKind = error.kind
            report.exitKind = error.category == .configuration ? .configuration : .tryLater
            for index in items.indices where items[index].outcome == .wouldCopy {
                items[index].outcome = .failed
                items[index].retryable = true
                items[index].reason = "not copied: the run stopped (\(error.category.rawValue)); run it again to resume"
            }
        }
    }

    private func copy(_ items: inout [MigrationItem], report: inout MigrationReport) async throws {
        let total = items.filter { $0.outcome == .wouldCopy }.count
        var done = 0
        for kind in MigratedKind.allCases {
            Migrator.skipOrphans(&items)
            let batch = items.indices.filter {
                items[$0].kind == kind
                    && (items[$0].outcome == .wouldCopy || items[$0].outcome == .identical)
            }
            for chunk in batch.chunked(MigrationTransfer.groupSize) {
                var records = chunk.map { items[$0] }
                let toCreate = records.indices.filter { records[$0].outcome == .wouldCopy }
                try checkpoint.record(toCreate.map { entry(records[$0], .pending) })
                var created = toCreate.map { records[$0] }
                // A family's copy goes up only once its code's claim names it.
                report.codesClaimed += try await MigrationClaims.claim(
                    &created, at: destination, store: store)
                let claimed = created.indices.filter { created[$0].outcome == .wouldCopy }
                var sent = claimed.map { created[$0] }
                try await MigrationTransfer.create(&sent, at: destination)
                for (position, index) in claimed.enumerated() { created[index] = sent[position] }
                for (position, index) in toCreate.enumerated() {
                    records[index] = created[position]
                }
                let placed = records.filter(\.outcome.isInPlace)
                // One transaction: a run killed after it finds the rows and the checkpoint, or
                // neither.
                let stored = placed.map { entry($0, .copied).stored }
                report.store.add(
                    try store.learnMigratedRecords(
                        MigrationStoreImport.records(placed), checkpoint: stored,
                        runKey: checkpoint.runKey))
                for (position, index) in chunk.enumerated() { items[index] = records[position] }
                done += toCreate.count
                migrator.progress(
                    .copying, done, total, problems: records.filter(\.outcome.isProblem).count)
            }
        }
    }

    private func entry(_ item: MigrationItem, _ status: MigrationCheckpoint.Status)
        -> MigrationCheckpoint.Entry
    {
        MigrationCheckpoint.Entry(
            sourceName: item.sourceName, kind: item.kind, destinationName: item.destinationName,
            newCode: item.recode?.newCode, status: status, keptBy: item.recode?.keptBy)
    }

    /// A kept source's checkpoint keeps its status (a copy made, or none: an invalid record
    /// stays to be planned again) and says why it stays.
    private func keptEntry(_ item: MigrationItem) -> MigrationCheckpoint.Entry {
        var kept = entry(
            item, item.deleted ? .deleted : item.outcome.isInPlace ? .copied : .pending)
        kept.kept = item.kept
        return kept
    }

    /// `DIR/qr/FAMILY_ID.png` for every re-coded family in place, this run's or an earlier one's
    /// (a run killed after its commit has its QR codes written by the next).
    private func writeQRCodes(_ items: [MigrationItem]) throws {
        let recoded = items.filter {
            $0.kind == .family && $0.recode != nil && $0.outcome.isInPlace
        }
        guard !recoded.isEmpty, let directory = request.outputDirectory else { return }
        let folder = OutputFolder(path: directory)
        _ = try folder.prepare()
        let renderer = try QRCodePNGRenderer()
        for item in recoded {
            guard let code = item.recode?.newCode, !code.isEmpty else { continue }
            let file = QRCodeFiles.relativePath(for: FamilyID(rawValue: item.destinationName))
            try AtomicFile.write(try renderer.png(for: code), to: "\(directory)/\(file)")
        }
    }

    /// Every copy that should be in place, looked up and compared field by field with its source's
    /// translation; counts of each kind on both sides.
    private func verify(_ items: inout [MigrationItem]) async throws -> MigrationReport.Verification
    {
        var verification = MigrationReport.Verification()
        for kind in MigratedKind.allCases {
            verification.counts[kind.rawValue] = MigrationReport.KindCount()
        }
        for item in items { verification.counts[item.kind.rawValue, default: .init()].source += 1 }
        let placed = items.indices.filter { items[$0].outcome.isInPlace }
        for chunk in placed.chunked(MigrationTransfer.groupSize) {
            let found = try await MigrationTransfer.lookup(
                chunk.map { items[$0].destinationName }, at: destination)
            for index in chunk {
                verification.checked += 1
                if let record = found[items[index].destinationName],
                    MigrationTranslation.same(items[index].copy, record)
                {
                    verification.matched += 1
                    verification.counts[items[index].kind.rawValue, default: .init()].destination +=
                        1
                } else {
                    verification.mismatched += 1
                    items[index].outcome = .mismatch
                    items[index].reason =
                        found[items[index].destinationName].map {
                            "the destination's copy differs from the source in "
                                + MigrationTranslation.differingFields(items[index].copy, $0)
                                .joined(separator: ", ")
                        } ?? "the copy is missing at the destination"
                }
            }
            migrator.progress(
                .verifying, verification.checked, placed.count, problems: verification.mismatched)
        }
        return verification
    }

    /// Only when every record is in place and verified: a legacy family deleted while one of its
    /// memberships stayed behind would take that membership with it (DELETE_SELF).
    private func deleteSources(_ items: inout [MigrationItem], report: inout MigrationReport) async throws {
        guard request.mode == .legacyTypes else { return }
        let keep = MigrationKeptSources.resolve(request.keepSource, in: items)
        if !keep.unknown.isEmpty {
            report.deletionRefused = "nothing deleted: --keep-source names no legacy record this run read (\(keep.unknown.joined(separator: ", "))); "
                + "check the name (the report's sourceName), then run again"
            return
        }
        for index in items.indices { items[index].kept = keep.kept[items[index].sourceName] }
        if let problem = items.first(where: { $0.outcome.isProblem && $0.kept == nil }) {
            report.deletionRefused = "nothing deleted: not every record is in place and verified "
                + "(\(problem.sourceName): \(problem.outcome.rawValue)); "
                + MigrationKeptSources.advice(for: problem)
            return
        }
        // A legacy record added since the read (a membership joined in the app meanwhile) has no
        // copy: deleting its family would take it too (DELETE_SELF). The source is read again.
        let known = Set(items.map(\.sourceName))
        let added = try await MigrationTransfer.readAll(types: RecordMapping.legacyTypes, from: migrator.endpoints.source) { record in
            known.contains(record.recordName) ? nil : record
        }
        if let first = added.first {
            report.deletionRefused = "nothing deleted: \(added.count) legacy record\(added.count == 1 ? " was" : "s were") "
                + "added after this run read the source "
                + "(\(first.recordName), \(first.recordType ?? "no type")); run the migration again to copy "
                + "\(added.count == 1 ? "it" : "them") first"
            return
        }
        // Kept on purpose, before anything is deleted: the audit stops asking about these.
        try checkpoint.record(items.filter { keep.kept[$0.sourceName] != nil }.map(keptEntry))
        let toDelete = items.filter { !$0.deleted && $0.kept == nil }.count
        var attempted = 0
        // Memberships first: a family or profile goes only once nothing that stays points at it.
        for kind in MigratedKind.allCases.reversed() {
            if kind != .membership { MigrationKeptSources.keepReferenced(by: &items) }
            let batch = items.indices.filter {
                items[$0].kind == kind && !items[$0].deleted && items[$0].kept == nil
            }
            for chunk in batch.chunked(CloudKitClient.maxOperationsPerRequest) {
                var records = chunk.map { items[$0] }
                try await MigrationTransfer.deleteSources(&records, at: migrator.endpoints.source)
                try checkpoint.record(records.filter(\.deleted).map { entry($0, .deleted) })
                for (position, index) in chunk.enumerated() { items[index] = records[position] }
                attempted += chunk.count
                migrator.progress(
                    .deleting, attempted, toDelete, problems: records.filter { !$0.deleted }.count)
            }
        }
        let refused = items.filter { !$0.deleted && $0.kept == nil }
        guard let first = refused.first else { return }
        // A refusal (ACCESS_DENIED: an app user's record, which the key may not delete) is
        // refused again on every run: keeping those records is what finishes the migration.
        report.keepToFinish = refused.map(\.sourceName)
        report.deletionRefused = "CloudKit did not delete \(refused.count) legacy record\(refused.count == 1 ? "" : "s") "
            + "(\(first.sourceName): \(first.reason ?? "unknown")); what \(refused.count == 1 ? "it references" : "they reference") "
            + "stayed too. To finish, keep \(refused.count == 1 ? "it" : "them"): run again with "
            + refused.map { "--keep-source \($0.sourceName)" }.joined(separator: " ")
            + " (a change since the read is kept: a run without --keep-source retries it)"
    }
}
