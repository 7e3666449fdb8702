import Foundation
import TribeBoardMigrate

enum MigrateReportText {
    static func render(_ report: MigrationReport) -> String {
        let side = { (side: MigrationReport.Side) in "\(side.container) (\(side.environment), \(side.database))" }
        let state = report.applied ? "applied" : "plan"
        var lines = ["Migrate \(report.mode.rawValue) (\(state)): \(side(report.source)) -> \(side(report.destination))"]
        lines.append(MigrationOutcome.allCases.map { "\($0.rawValue) \(report.counts[$0.rawValue] ?? 0)" }.joined(separator: ", "))
        if report.recoded > 0 {
            lines.append("Families given a new code (an older family holds theirs, or it is not in the wire format): \(report.recoded)"
                         + (report.applied ? report.outputDirectory.map { " (QR codes in \($0)/qr)" } ?? "" : ""))
        }
        if report.applied {
            lines.append("Store learned: \(report.store.families) families, \(report.store.userProfiles) profiles, "
                + "\(report.store.memberships) memberships")
        }
        if let verification = report.verification {
            let counts = verification.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.source) -> \($0.value.destination)" }
            lines.append("Verification: \(verification.matched) of \(verification.checked) copies match their source field by field"
                         + (verification.passed ? "" : "; \(verification.mismatched) DO NOT") + " (\(counts.joined(separator: ", ")))")
        }
        if report.sourceDeleted > 0 { lines.append("Legacy records deleted: \(report.sourceDeleted)") }
        if report.sourceKept > 0 {
            let kept = report.entries.filter { $0.sourceKept != nil }
            lines.append("Legacy records kept (--keep-source): \(report.sourceKept)")
            for entry in kept.prefix(200) { lines.append("  \(entry.sourceName) (\(entry.sourceType)): \(entry.sourceKept ?? "")") }
        }
        if let refused = report.deletionRefused { lines.append("Delete source: \(refused)") }
        if let next = report.next { lines.append("Next: \(next)") }
        let problems = report.entries.filter { $0.reason != nil && $0.outcome != .copied && $0.outcome != .identical }
        if !problems.isEmpty {
            lines.append("Not migrated, and why:")
            for entry in problems.prefix(200) {
                lines.append("  \(entry.outcome.rawValue)  \(entry.kind.rawValue)  "
                    + "\(entry.sourceName) -> \(entry.destinationName): \(entry.reason ?? "")")
            }
            if problems.count > 200 { lines.append("  … and \(problems.count - 200) more (--json or --csv lists every record)") }
        }
        let recoded = report.entries.filter { $0.recode != nil && $0.outcome != .codeConflict }
        if !recoded.isEmpty {
            lines.append("New codes:")
            for entry in recoded.prefix(200) {
                guard let recode = entry.recode else { continue }
                let new = recode.newCode.isEmpty ? "(chosen with --apply)" : recode.newCode
                // Kept by another family, or re-coded for a code the join screen cannot reach.
                let reason =
                    recode.reason == "migrate-invalid-code"
                    ? "the old code breaks the format" : recode.reason
                let why = recode.keptBy.isEmpty ? "  (\(reason))" : "  kept by \(recode.keptBy)"
                lines.append(
                    "  \(entry.destinationName)  \(recode.oldCode) -> \(new)\(why)"
                        + (entry.qrFile.map { "  \($0)" } ?? ""))
            }
        }
        if let codesFile = report.codesFile {
            lines.append("New codes in full (owner-only): \(codesFile)")
        }
        if let stopped = report.stoppedBy { lines.append("Stopped: \(stopped)") }
        if !report.applied {
            lines.append("This is a plan: nothing was written. Run again with --apply to migrate.")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
