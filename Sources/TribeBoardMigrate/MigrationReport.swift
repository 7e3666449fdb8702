import Foundation
import TribeBoardCloudKit
import TribeBoardQR
import TribeBoardSupport
import TribeBoardDomain

/// What a migration moved, found in place, conflicted or skipped, and why: one document for the
/// text report, `--json` and `--csv`.
package struct MigrationReport: Encodable, Sendable {
    package enum ExitKind: String, CaseIterable, Encodable, Sendable {
        case success
        /// Conflicts, code conflicts, invalid, skipped or failed records, mismatches: exit 1.
        case problems
        /// CloudKit unavailable or throttled (a run stopped, or records refused for now): exit 75.
        case tryLater
        /// CloudKit refused the configuration: exit 78.
        case configuration
    }

    package struct Side: Encodable, Sendable {
        package var container: String
        package var environment: String
        package var database: String
        package var baseURL: String

        init(_ configuration: CloudKitConfiguration) {
            container = configuration.container
            environment = configuration.environment.rawValue
            database = configuration.database.rawValue
            baseURL = configuration.displayBaseURL
        }
    }

    package struct Entry: Encodable, Sendable {
        package var kind: MigratedKind
        package var sourceName: String
        package var sourceType: String
        package var destinationName: String
        var destinationType: String
        package var outcome: MigrationOutcome
        package var reason: String?
        /// Codes masked unless --show-codes.
        package var recode: MigrationRecode?
        package var qrFile: String?
        package var sourceDeleted: Bool
        /// Why --delete-source left it where it is (`--keep-source`), if it did.
        package var sourceKept: String?
    }

    /// Records of each kind read at the source and found right at the destination.
    package struct KindCount: Encodable, Sendable, Equatable {
        package var source = 0
        package var destination = 0
    }

    package struct Verification: Encodable, Sendable {
        /// Copies looked up at the destination and compared field by field with the source.
        package var checked = 0
        package var matched = 0
        package var mismatched = 0
        package var counts: [String: KindCount] = [:]
        package var passed: Bool { mismatched == 0 }
    }

    package var mode: MigrationMode
    package var applied: Bool
    package var onCodeConflict: CodeConflictPolicy
    package var source: Side
    package var destination: Side
    /// Every outcome, zero or not (stable keys for scripts).
    package var counts: [String: Int] = [:]
    package var recoded = 0
    /// Codes of copied families claimed at the destination this run (`CodeClaim`).
    package var codesClaimed = 0
    package var sourceDeleted = 0
    /// Legacy records --delete-source left in place (`--keep-source`, and what kept memberships
    /// reference).
    package var sourceKept = 0
    /// The re-coded families' new codes in full (`DIR/new-codes.csv`, owner-only), when any were
    /// written.
    package var codesFile: String?
    /// Why --delete-source deleted nothing, or not everything.
    package var deletionRefused: String?
    /// The legacy records CloudKit did not delete: `--keep-source` each of them finishes.
    package var keepToFinish: [String] = []
    /// The command that finishes the migration (set by the command, which knows its arguments).
    package var next: String?
    package var verification: Verification?
    package var store = MigrationStoreImport.Learned()
    package var outputDirectory: String?
    /// What stopped the run early (the checkpoint keeps what was done).
    package var stoppedBy: String?
    /// The same, for scripts: the kind the error document gives that CloudKit error.
    package var stopKind: String?
    package var exitKind: ExitKind = .success
    package var entries: [Entry] = []

    init(request: MigrationRequest, endpoints: MigrationEndpoints) {
        mode = request.mode
        applied = request.apply
        onCodeConflict = request.onCodeConflict
        source = Side(endpoints.source.configuration)
        destination = Side(endpoints.destination.configuration)
        outputDirectory = request.outputDirectory
    }

    mutating func finish(_ items: [MigrationItem], request: MigrationRequest) {
        var counts = Dictionary(
            uniqueKeysWithValues: MigrationOutcome.allCases.map { ($0.rawValue, 0) })
        entries = items.map { item in
            counts[item.outcome.rawValue, default: 0] += 1
            let recode = item.recode.map {
                MigrationRecode(
                    oldCode: request.display($0.oldCode), newCode: request.display($0.newCode),
                    keptBy: $0.keptBy, reason: $0.reason)
            }
            let qrFile = item.recode != nil && item.outcome.isInPlace && request.apply
                ? QRCodeFiles.relativePath(for: FamilyID(rawValue: item.destinationName)) : nil
            return Entry(
                kind: item.kind, sourceName: item.sourceName,
                sourceType: item.source.recordType ?? "",
                destinationName: item.destinationName, destinationType: item.copy.recordType ?? "",
                outcome: item.outcome,
                reason: item.reason, recode: recode,
                qrFile: qrFile,
                sourceDeleted: item.deleted, sourceKept: item.kept)
        }
        self.counts = counts
        recoded = items.filter { $0.recode != nil && $0.outcome != .codeConflict }.count
        sourceDeleted = items.filter(\.deleted).count
        sourceKept = items.filter { $0.kept != nil }.count
        if exitKind == .success, items.contains(where: { $0.outcome.isProblem && $0.retryable }) {
            exitKind = .tryLater
        }
        if exitKind == .success, items.contains(where: { $0.outcome.isProblem }) {
            exitKind = .problems
        }
        if exitKind == .success, deletionRefused != nil { exitKind = .problems }
    }
}

/// The report as CSV, one row per source record.
package enum MigrationCSV {
    static let header = [
        "kind", "source_name", "source_type", "destination_name", "destination_type", "outcome",
        "reason",
        "old_code", "new_code", "kept_by", "qr_file", "source_deleted", "repair_reason"
    ]

    package static func render(_ report: MigrationReport) -> String {
        var lines = [line(header)]
        for entry in report.entries {
            lines.append(
                line([
                    entry.kind.rawValue, entry.sourceName, entry.sourceType, entry.destinationName,
                    entry.destinationType,
                    entry.outcome.rawValue, entry.reason ?? "", entry.recode?.oldCode ?? "",
                    entry.recode?.newCode ?? "",
                    entry.recode?.keptBy ?? "", entry.qrFile ?? "",
                    entry.sourceDeleted ? "yes" : "no", entry.recode?.reason ?? ""
                ]))
        }
        return lines.joined()
    }

    private static func line(_ fields: [String]) -> String {
        fields.map(CSVField.escape).joined(separator: ",") + "\r\n"
    }
}
