import Foundation
import TribeBoardAudit
import TribeBoardDoctor
import TribeBoardMigrate
import TribeBoardProvisioning

// Why a run ends non-zero, in a line or a few, from its report. `-q` drops progress, warnings and
// the summary, never these: `CommandContext.stopped` prints them as errors, which quiet keeps.

extension CommandContext {
    /// Under `-q`, the reasons the run ends non-zero, on stderr. Without it the warnings and the
    /// summary already say them, so nothing is added.
    func stopped(because reasons: [String]) {
        guard options.quiet else { return }
        for reason in reasons { logger.error("\(reason)") }
    }
}

enum StopReasons {
    static func of(_ report: ProvisionReport) -> [String] {
        var reasons: [String] = []
        if report.qrWriteFailures > 0 {
            reasons.append("\(report.qrWriteFailures) QR codes could not be written")
        }
        if let remote = report.remote {
            if let unavailable = remote.unavailable {
                reasons.append("CloudKit code check stopped: \(unavailable)")
            }
            if let upload = remote.uploadError { reasons.append("upload stopped: \(upload)") }
            if let next = remote.next { reasons.append("next: \(next)") }
        }
        if report.failed > 0 {
            let first =
                report.failures.first.map { ", the first on line \($0.line): \($0.error)" } ?? ""
            reasons.append(TerminalText.count(report.failed, "row", "rows") + " failed" + first)
        }
        if report.skipped > 0 {
            reasons.append(
                "\(report.skipped) rows skipped as possible duplicates (--skip-possible-duplicates)"
            )
        }
        return reasons
    }

    static func of(_ report: AuditReport, threshold: AuditFinding.Severity?) -> [String] {
        guard let threshold else { return [] }
        let reaching = report.findings.filter { $0.severity >= threshold }
        guard let first = reaching.first else { return [] }
        return ["\(reaching.count) findings at \(threshold.rawValue) or above, the first: \(first.message) (\(first.action))"]
    }

    static func of(_ report: DoctorReport) -> [String] { failures(report.checks) }

    static func failures(_ checks: [DoctorCheck]) -> [String] {
        checks.filter { $0.status == .failure }.map { check in
            "\(check.id): \(check.found)" + (check.action.map { "; \($0)" } ?? "")
        }
    }

    static func of(_ report: MigrationReport) -> [String] {
        var reasons: [String] = []
        if let stopped = report.stoppedBy { reasons.append("migration stopped early: \(stopped)") }
        let problems = MigrationOutcome.allCases.filter(\.isProblem).compactMap { outcome in
            report.counts[outcome.rawValue].flatMap { $0 > 0 ? "\($0) \(outcome.rawValue)" : nil }
        }
        if !problems.isEmpty {
            reasons.append("records not in place: " + problems.joined(separator: ", "))
        }
        if let refused = report.deletionRefused {
            reasons.append("sources not deleted: \(refused)")
        }
        return reasons
    }
}
