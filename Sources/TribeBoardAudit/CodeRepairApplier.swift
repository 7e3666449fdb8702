import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// Applies a repair plan in three steps, so that the store's write lock is held for a moment (not
/// across thousands of PNG writes) and a killed run leaves no file naming a code the store does
/// not hold:
///
/// 1. new codes are chosen (a read) and their PNGs written into a staging folder;
/// 2. one short IMMEDIATE transaction re-checks each family (its code is still the one the audit
///    read, the new code is still free) and commits the changes;
/// 3. the committed families' PNGs are renamed into `DIR/qr/`, then `repairs.csv` is written.
///
/// Killed before step 2, the run leaves only its staging folder, which the next run removes;
/// killed during step 3 (or stopped by a folder where repairs.csv goes), the staging folder stays
/// with the list of its families, and the next run puts their QR codes in place and writes their
/// rows in repairs.csv, before its own, and ends 74 for as long as it cannot.
struct CodeRepairApplier {
    static let manifestName = "repairs.csv"
    static let manifestHeader = ["family_id", "family_name", "old_code", "new_code", "kept_by", "reason", "qr_file"]

    let request: AuditRequest
    let outputDirectory: String
    let logger: Logger

    /// `client`: the live remote, whose claims the new codes take first (nil: resync claims them).
    func apply(_ plan: CodeRepairReport, avoiding knownCodes: Set<String>,
               client: CloudKitClient? = nil) async throws(CodeRepairError) -> CodeRepairReport {
        var report = plan
        report.outputDirectory = outputDirectory
        // With nothing to change, a folder an interrupted repair used is still finished.
        guard !plan.changes.isEmpty || FileManager.default.fileExists(atPath: outputDirectory) else { return report }
        let folder = OutputFolder(path: outputDirectory)
        var staging: RepairStaging?
        var recovery = RepairStaging.Recovery()
        var committed = false
        do {
            _ = try folder.prepare()
            let store = try TribeBoardStore.open(at: request.storePath)
            recovery = try RepairStaging.recover(in: folder, store: store)
            if !recovery.changes.isEmpty {
                logger.notice("finishing an interrupted repair: its QR codes and repairs.csv", metadata: ["families": "\(recovery.changes.count)"])
            }
            guard !plan.changes.isEmpty || !recovery.changes.isEmpty else {
                recovery.remove()
                return report
            }
            var changes: [CodeRepairReport.Change] = []
            var stage: RepairStaging?
            if !plan.changes.isEmpty {
                stage = try RepairStaging(in: folder)
                staging = stage
                changes = try choose(plan.changes, store: store, avoiding: knownCodes)
                changes = try await claim(changes, store: store, client: client, avoiding: knownCodes)
                let renderer = try QRCodePNGRenderer()
                for change in changes {
                    guard let code = change.assignedCode, let stage else { continue }
                    try AtomicFile.write(try renderer.png(for: code), to: stage.file(for: change.familyId))
                }
                try stage?.record(changes.filter { $0.assignedCode != nil }.map(\.familyId))
                changes = try commit(changes, store: store)
                committed = true
            }
            report.changes = try place(changes, staging: stage, folder: folder, finishing: recovery.changes)
            recovery.remove()
        } catch {
            // Before the commit nothing names a new code outside the staging folder: drop it.
            // After it, the folder keeps what is not in place yet, for the next run.
            if !committed { staging?.remove() }
            let failure = CodeRepairError.classify(error)
            // Changed stores: this run's commit, or an interrupted run's being finished (its
            // folder is kept for the next run, which writes its repairs.csv).
            let changed = committed || !recovery.changes.isEmpty
            if changed, case .incomplete = failure { throw failure }
            throw changed ? .incomplete(failure) : failure
        }
        report.applied = true
        report.manifest = "\(outputDirectory)/\(Self.manifestName)"
        let changed = report.changes.filter { $0.newCode != nil }.count
        logger.notice("repair applied", metadata: ["families": "\(changed)", "output": "\(outputDirectory)"])
        return report
    }

    /// Step 1: a new code for each family still as the audit read it, unique among the store's
    /// codes and every code the audit saw. A read: other writers go on meanwhile.
    func choose(_ planned: [CodeRepairReport.Change], store: TribeBoardStore,
                avoiding knownCodes: Set<String>) throws -> [CodeRepairReport.Change] {
        let current = try store.currentCodes(of: planned.map { FamilyID(rawValue: $0.familyId) })
        var changes = planned
        let unchanged = changes.indices.filter { current[FamilyID(rawValue: changes[$0].familyId)] == changes[$0].expectedCode }
        let kept = Set(unchanged)
        for index in changes.indices where !kept.contains(index) {
            changes[index].skipped = Self.skipReason(current[FamilyID(rawValue: changes[index].familyId)])
        }
        let codes = try store.freeCodes(unchanged.count, avoiding: knownCodes, generator: FamilyCodeGenerator())
        for (index, code) in zip(unchanged, codes) {
            changes[index].assignedCode = code.value
        }
        return changes
    }

    /// Step 2: the changes whose plan still holds, in one short transaction (the store's one
    /// "a family's code changed" operation, which `recode` uses too).
    func commit(_ planned: [CodeRepairReport.Change], store: TribeBoardStore) throws -> [CodeRepairReport.Change] {
        var changes = planned
        let chosen = changes.indices.filter { changes[$0].assignedCode != nil }
        let outcomes = try store.changeCodes(chosen.compactMap { index in
            changes[index].assignedCode.map {
                let keptBy = changes[index].keptBy
                return CodeChange(familyID: FamilyID(rawValue: changes[index].familyId), expectedCode: changes[index].expectedCode,
                                  newCode: $0, keptBy: keptBy.isEmpty ? nil : FamilyID(rawValue: keptBy), reason: changes[index].reason)
            }
        })
        for (index, outcome) in zip(chosen, outcomes) {
            switch outcome {
            case .changed: continue
            case .familyGone: changes[index].skipped = Self.skipReason(nil)
            case .codeChangedMeanwhile: changes[index].skipped = Self.skipReason("")
            case .newCodeTaken: changes[index].skipped = "the new code chosen for it was taken meanwhile; run the repair again"
            }
            changes[index].assignedCode = nil
        }
        return changes
    }

    /// Step 3: the committed families' PNGs into place, then the manifest (with the families of
    /// an interrupted repair being finished, whose PNGs are in place already); the staging folder goes.
    private func place(_ committed: [CodeRepairReport.Change], staging: RepairStaging?, folder: OutputFolder,
                       finishing interrupted: [CodeRepairReport.Change]) throws -> [CodeRepairReport.Change] {
        var changes = committed
        for index in changes.indices {
            guard let staging else { break }
            let id = changes[index].familyId
            guard let code = changes[index].assignedCode else {
                unlink(staging.file(for: id))
                continue
            }
            let qrFile = QRCodeFiles.relativePath(for: FamilyID(rawValue: id))
            let destination = "\(folder.path)/\(qrFile)"
            guard rename(staging.file(for: id), destination) == 0 else { throw FileSystemError("rename into", path: destination) }
            changes[index].newCode = request.display(code)
            changes[index].qrFile = qrFile
        }
        changes = interrupted.filter { old in !changes.contains { $0.familyId == old.familyId } }.map { old in
            var change = old
            change.oldCode = request.display(old.expectedCode)
            change.newCode = old.assignedCode.map(request.display)
            return change
        } + changes
        let manifest = try StreamingFile(path: "\(outputDirectory)/\(Self.manifestName)")
        let records = CSVRecordWriter(file: manifest)
        try records.append(Self.manifestHeader)
        for change in changes {
            guard let code = change.assignedCode, let qrFile = change.qrFile else { continue }
            try records.append([change.familyId, change.familyName ?? "", change.expectedCode, code, change.keptBy, change.reason, qrFile])
        }
        try manifest.commit()
        staging?.remove()
        return changes.map { var change = $0; change.assignedCode = nil; return change }
    }

    private static func skipReason(_ current: String?) -> String {
        current == nil ? "the family no longer exists" : "its code changed after the audit read it"
    }
}
