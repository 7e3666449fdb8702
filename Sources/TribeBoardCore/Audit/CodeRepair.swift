import Foundation
import GRDB
import Logging

public enum CodeRepairError: Error, LocalizedError {
    case output(FileSystemError)
    case store(StoreError)
    case codeGeneration(String)
    case qrCode(String)

    public var errorDescription: String? {
        switch self {
        case .output(let error): return "repair not applied: \(error.localizedDescription)"
        case .store(let error): return "repair not applied: \(error.localizedDescription)"
        case .codeGeneration(let reason): return "repair not applied: \(reason)"
        case .qrCode(let reason): return "repair not applied: cannot make a QR code: \(reason)"
        }
    }
}

/// The local fix for duplicate codes: in each group the oldest family keeps the code and the
/// newer local families get new ones. CloudKit-only families cannot be changed from here (the
/// toolkit never writes CloudKit directly): they are listed for a person to fix in the app.
public struct CodeRepairReport: Encodable, Sendable {
    public struct Change: Encodable, Sendable {
        public var familyId: String
        public var familyName: String?
        public var oldCode: String
        /// Set once applied.
        public var newCode: String?
        public var keptBy: String
        public var reason: String
        public var qrFile: String?
        /// Not applied: the family's code changed after the audit read it.
        public var skipped: String?
        /// The code as the audit read it (`oldCode` may be masked).
        let expectedCode: String

        enum CodingKeys: String, CodingKey { case familyId, familyName, oldCode, newCode, keptBy, reason, qrFile, skipped }
    }

    public struct ManualFix: Encodable, Sendable {
        public var recordName: String
        public var name: String?
        public var code: String
        public var keptBy: String
    }

    public var applied = false
    public var outputDirectory: String?
    public var manifest: String?
    public var changes: [Change] = []
    public var manual: [ManualFix] = []
}

struct CodeRepairPlanner {
    let request: AuditRequest

    func plan(_ groups: [DuplicateGroup]) -> CodeRepairReport {
        var report = CodeRepairReport()
        for group in groups {
            let ordered = group.membersOldestFirst
            guard let keeper = ordered.first else { continue }
            for member in ordered.dropFirst() {
                if member.location == .remote {
                    report.manual.append(.init(recordName: member.id, name: member.name, code: request.display(member.code), keptBy: keeper.id))
                } else {
                    report.changes.append(.init(familyId: member.id, familyName: member.name, oldCode: request.display(member.code),
                                                keptBy: keeper.id, reason: group.category.rawValue, expectedCode: member.code))
                }
            }
        }
        return report
    }
}

/// Applies a plan: new codes in one store transaction, new QR PNGs and `repairs.csv` in the output
/// folder. Any failure rolls the store back and removes the files written: nothing half done.
struct CodeRepairApplier {
    static let manifestName = "repairs.csv"
    static let manifestHeader = ["family_id", "family_name", "old_code", "new_code", "kept_by", "reason", "qr_file"]

    let request: AuditRequest
    let outputDirectory: String
    let logger: Logger

    func apply(_ plan: CodeRepairReport, avoiding knownCodes: Set<String>) throws(CodeRepairError) -> CodeRepairReport {
        var report = plan
        report.outputDirectory = outputDirectory
        guard !plan.changes.isEmpty else { return report }
        let folder = OutputFolder(path: outputDirectory)
        let store: TribeBoardStore
        do {
            _ = try folder.prepare()
            store = try TribeBoardStore.open(at: request.storePath)
        } catch let error as FileSystemError {
            throw .output(error)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .codeGeneration("\(error)")
        }
        var written: [String] = []
        let manifestPath = "\(outputDirectory)/\(Self.manifestName)"
        var manifestCommitted = false
        do {
            let manifest = try StreamingFile(path: manifestPath)
            let records = CSVRecordWriter(file: manifest)
            try records.append(Self.manifestHeader)
            report.changes = try store.writer.writeWithoutTransaction { db in
                var changes = plan.changes
                try db.inTransaction(.immediate) {
                    changes = try applyChanges(changes, db: db, folder: folder, records: records, avoiding: knownCodes, written: &written)
                    try manifest.commit()
                    manifestCommitted = true
                    return .commit
                }
                return changes
            }
        } catch {
            for path in written { unlink(path) }
            if manifestCommitted { unlink(manifestPath) }
            throw Self.classify(error)
        }
        report.applied = true
        report.manifest = manifestPath
        logger.notice("repair applied", metadata: ["families": "\(report.changes.filter { $0.newCode != nil }.count)", "output": "\(outputDirectory)"])
        return report
    }

    private func applyChanges(_ planned: [CodeRepairReport.Change], db: Database, folder: OutputFolder, records: CSVRecordWriter,
                              avoiding knownCodes: Set<String>, written: inout [String]) throws -> [CodeRepairReport.Change] {
        let generator = try FamilyCodeGenerator()
        let lookups = try FamilyLookups(db)
        let renderer = try QRCodePNGRenderer()
        let now = StoreTimestamp.format(Date())
        var taken = knownCodes
        var changes = planned
        for index in changes.indices {
            let change = changes[index]
            let current = try String.fetchOne(db, sql: "SELECT code FROM families WHERE id = ?", arguments: [change.familyId])
            guard current == change.expectedCode else {
                changes[index].skipped = current == nil ? "the family no longer exists" : "its code changed after the audit read it"
                continue
            }
            let code = try generator.generateFree(avoiding: taken, lookups: lookups, reservations: nil)
            taken.insert(code.value)
            try db.execute(sql: """
                UPDATE families SET code = ?, needs_sync = 1, code_verified_remotely_at = NULL WHERE id = ?
                """, arguments: [code.value, change.familyId])
            // A conflict recorded for the old code no longer holds: resync starts afresh.
            try db.execute(sql: "DELETE FROM sync_state WHERE record_table = 'families' AND record_id = ?", arguments: [change.familyId])
            try db.execute(sql: """
                INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [change.familyId, change.expectedCode, code.value, change.keptBy, change.reason, now])
            let qrFile = QRCodeFiles.relativePath(for: change.familyId)
            let qrPath = "\(folder.path)/\(qrFile)"
            try AtomicFile.write(try renderer.png(for: code.value), to: qrPath)
            written.append(qrPath)
            try records.append([change.familyId, change.familyName ?? "", change.expectedCode, code.value, change.keptBy, change.reason, qrFile])
            changes[index].newCode = request.display(code.value)
            changes[index].qrFile = qrFile
        }
        return changes
    }

    private static func classify(_ error: any Error) -> CodeRepairError {
        switch error {
        case let error as CodeRepairError: return error
        case let error as FileSystemError: return .output(error)
        case let error as QRCodeError: return .qrCode(error.localizedDescription)
        case let error as CodeGenerationError: return .codeGeneration(error.localizedDescription)
        default: return .store(.writeFailed(reason: "\(error)"))
        }
    }
}
