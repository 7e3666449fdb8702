import TribeBoardSupport
import Foundation
import TribeBoardAudit
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote

/// The audit as people read it: counts first, then each finding with its families and what to do.
enum AuditReportText {
    static func render(_ report: AuditReport) -> String {
        var lines: [String] = []
        let remote = report.scanned.remoteRecords.values.reduce(0, +)
        lines.append(
            "Audit of \(report.store): \(report.scanned.localFamilies) local families, "
                + (report.scanned.remote == "none"
                    ? "no remote" : "\(remote) remote records from \(report.scanned.remote)")
                + String(format: " (%.1f s)", report.durationSeconds))
        if report.remoteNotRead != nil {
            lines.append("The remote could not be read (error below): the store's findings alone.")
        }
        lines.append(
            TerminalText.count(report.errors, "error", "errors") + ", "
                + TerminalText.count(report.warnings, "warning", "warnings"))
        for severity in [AuditFinding.Severity.error, .warning] {
            for category in AuditFinding.Category.allCases where category.severity == severity {
                guard let count = report.counts[category.rawValue], count > 0 else { continue }
                let label = severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                lines.append("  \(label) \(String(count).leftPadded(8))  \(category.title)")
            }
        }
        if report.awaitingResync > 0 {
            lines.append(
                "  \(report.awaitingResync) CloudKit copies still hold a code a repair replaced; "
                    + "`\(report.uploadCommand)` uploads the new codes")
        }
        if report.awaitingInvitedAdmin > 0 {
            lines.append("  \(AuditReportText.awaitingAdmin(report.awaitingInvitedAdmin, of: report.scanned.localFamilies))")
        }
        if report.legacyKept > 0 {
            lines.append("  \(report.legacyKept) legacy records kept on purpose (migrate legacy-types --keep-source)")
        }
        for finding in report.findings {
            lines.append("")
            lines.append(render(finding))
        }
        if let repair = report.repair {
            lines.append(""); lines.append(render(repair, uploadCommand: report.uploadCommand))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Not a fault: most provisioned families start this way.
    static func awaitingAdmin(_ count: Int, of total: Int) -> String {
        "\(count) of \(total) families \(count == 1 ? "awaits its" : "await their") invited admin (invited without an "
            + "Apple account hash): no admin in the app until that person joins with the code; expected, not an error"
    }

    private static func render(_ finding: AuditFinding) -> String {
        var lines = ["\(finding.severity.rawValue.uppercased())  \(finding.category.title) [\(finding.category.rawValue)]"
                     + (finding.code.map { "  code \($0)" } ?? "")]
        lines.append("  \(OutsideText.inline(finding.message, limit: 1000))")
        for family in finding.families {
            var parts = [
                family.location.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0),
                OutsideText.inline(family.id)
            ]
            if let name = family.name { parts.append("\"\(OutsideText.inline(name))\"") }
            if let code = family.code, finding.category != .stalePending { parts.append("code \(OutsideText.inline(code))") }
            if let type = family.recordType, type != RecordType.family.name { parts.append(OutsideText.inline(type)) }
            if let created = family.createdAt { parts.append("created \(OutsideText.inline(created))") }
            if let line = family.snapshotLine { parts.append("snapshot line \(line)") }
            lines.append("    " + parts.joined(separator: "  "))
        }
        if finding.count > finding.families.count {
            lines.append(
                "    ... and \(finding.count - finding.families.count) more (--all lists every one)"
            )
        }
        // Room for its commands whole (absolute store and key paths, the remote's flags): a
        // command cut short would not run as printed.
        lines.append("  what to do: \(OutsideText.inline(finding.action, limit: 8000))")
        return lines.joined(separator: "\n")
    }

    private static func render(_ repair: CodeRepairReport, uploadCommand: String) -> String {
        let changed = repair.changes.filter { $0.newCode != nil }.count
        var lines: [String] = []
        if repair.applied {
            var done: [String] = []
            if repair.manifest != nil || changed > 0 {
                done.append("\(changed) families got new codes; QR codes and \(repair.manifest ?? "repairs.csv") written")
            }
            if !repair.reupload.isEmpty { done.append("\(repair.reupload.count) families marked for upload again") }
            lines.append("Repair applied: \(done.joined(separator: "; ")); they wait for `\(uploadCommand)`")
        } else if repair.changes.isEmpty && repair.manual.isEmpty && repair.reupload.isEmpty {
            lines.append("Repair: nothing to change")
        } else {
            var proposed: [String] = []
            if !repair.changes.isEmpty { proposed.append("\(repair.changes.count) local families would get new codes") }
            if !repair.reupload.isEmpty { proposed.append("\(repair.reupload.count) families gone from CloudKit would be marked for upload again") }
            if proposed.isEmpty { proposed.append("nothing to change locally") }
            lines.append(
                "Repair (proposed; add --apply --out DIR to do it): "
                    + proposed.joined(separator: "; "))
        }
        for change in repair.changes {
            let name = OutsideText.inline(change.familyName ?? "")
            let codes = "\(OutsideText.inline(change.oldCode)) -> \(change.newCode ?? "new code")"
            var line =
                "  \(change.familyId)  \"\(name)\"  \(codes)  (\(change.keptBy) keeps the code)"
            if let skipped = change.skipped { line += "  skipped: \(skipped)" }
            lines.append(line)
        }
        if !repair.reupload.isEmpty {
            lines.append("  Gone from CloudKit, to upload again: " + repair.reupload.prefix(10).joined(separator: ", ")
                         + (repair.reupload.count > 10 ? " and \(repair.reupload.count - 10) more" : ""))
        }
        if !repair.manual.isEmpty {
            lines.append("  In CloudKit only, to change in the app (the toolkit never writes CloudKit directly):")
            for fix in repair.manual {
                let name = OutsideText.inline(fix.name ?? "")
                lines.append("  \(OutsideText.inline(fix.recordName))  \"\(name)\"  \(OutsideText.inline(fix.code))  "
                    + "(\(fix.keptBy) keeps the code)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
