import TribeBoardSupport
import Foundation
import TribeBoardDoctor

/// The checklist as people read it: sections, one mark a check, what was found, then what to do.
enum DoctorReportText {
    static func render(_ report: DoctorReport) -> String {
        var lines = [
            "TribeBoard doctor: store \(report.store)"
                + (report.project.map { ", project \($0)" } ?? "") + " (\(report.checkedAt))"
        ]
        for section in DoctorSection.allCases {
            let checks = report.checks.filter { $0.section == section }
            guard !checks.isEmpty else { continue }
            lines.append("")
            lines.append(section.title)
            for check in checks { lines += render(check) }
        }
        let summary = report.summary
        lines.append("")
        lines.append(
            "\(summary.ok) ok, \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s"), "
                + "\(summary.failures) failure\(summary.failures == 1 ? "" : "s"); the toolkit would run \(report.fallback.mode.rawValue)"
                + (report.fallback.reason == .none ? "" : " (\(report.fallback.reason.rawValue))"))
        return lines.joined(separator: "\n") + "\n"
    }

    static func render(_ report: FamilyReport) -> String {
        var lines = ["TribeBoard doctor: family \(report.query) in \(report.store)"]
        if let family = report.family {
            let importKey = family.importKey.map { "  import key \(OutsideText.inline($0))" } ?? ""
            lines.append("  \(OutsideText.inline(family.name))  id \(OutsideText.inline(family.id.rawValue))  "
                         + "code \(OutsideText.inline(family.code))"
                         + importKey + (family.sourceLine.map { "  line \($0)" } ?? ""))
        }
        if !report.nameMatches.isEmpty {
            lines.append("")
            lines.append("Families whose name contains \"\(report.query)\" (or whose admin's does): \(report.nameMatchesTotal)")
            for match in report.nameMatches {
                lines.append("  \(match.id)  \(OutsideText.inline(match.name))  "
                    + "ext \(OutsideText.inline(match.externalId ?? "-"))  admin \(OutsideText.inline(match.admin ?? "-"))  "
                    + "created \(match.createdAt?.text ?? "?")  \(match.sync)")
            }
            if report.nameMatchesTotal > report.nameMatches.count {
                lines.append("  … and \(report.nameMatchesTotal - report.nameMatches.count) more (type more of the name)")
            }
        }
        lines.append("")
        lines.append("Timeline")
        if report.timeline.isEmpty { lines.append("  (nothing recorded)") }
        for event in report.timeline {
            let at = (event.at?.text ?? "(no date)").padding(
                toLength: 24, withPad: " ", startingAt: 0)
            let source = event.source.padding(toLength: 12, withPad: " ", startingAt: 0)
            lines.append("  \(at)  \(source)  \(OutsideText.inline(event.what, limit: 1000))")
        }
        if let app = report.remote.app { lines += render(app) }
        lines.append("")
        lines.append("Findings")
        for finding in report.findings { lines += render(finding) }
        lines.append("")
        lines.append("Next")
        lines += report.nextSteps.map { "  - \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The join kit's lookup, step by step, as the app will run it.
    private static func render(_ app: AppLookupReport) -> [String] {
        var lines = ["", "What the app finds (the join kit's lookup)"]
        lines.append(
            "  claim    \(app.claimRecordName ?? "-")  "
                + (app.claimRecordType.map {
                    "\($0) by \(app.claimCreator ?? "?") naming \(app.claimFamily ?? "nothing")"
                } ?? "absent"))
        if let family = app.familyID {
            lines.append(
                "  family   \(family)  \(app.familyName ?? "?")  by \(app.familyCreator ?? "?")")
        }
        for member in app.members {
            lines.append(
                "  member   \(member.displayName ?? member.userID)  \(member.role) \(member.status)"
            )
        }
        lines.append(
            "  \(app.appFindsFamily ? "found" : "stops: \(app.stoppedAt ?? "")")  \(app.detail)")
        return lines
    }

    private static func render(_ check: DoctorCheck) -> [String] {
        let indent = "         "
        var found = check.found.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        let first = found.isEmpty ? "" : found.removeFirst()
        let target = check.target.map { "\($0): " } ?? ""
        var lines = ["  \(mark(check.status)) \(target)\(check.checked): \(first)"]
        lines += found.map { indent + $0 }
        for item in check.sample {
            let name = item.name.map { " \"\(OutsideText.inline($0))\"" } ?? ""
            let code = item.code.map { " code \(OutsideText.inline($0))" } ?? ""
            lines.append("\(indent)- \(OutsideText.inline(item.familyID))\(name)\(code): \(OutsideText.inline(item.detail, limit: 1000))")
        }
        if let count = check.count, count > check.sample.count, !check.sample.isEmpty {
            lines.append("\(indent)… and \(count - check.sample.count) more")
        }
        if let action = check.action, check.status != .ok { lines.append("\(indent)-> \(action)") }
        return lines
    }

    private static func mark(_ status: DoctorSeverity) -> String {
        switch status {
        case .ok: return "[ ok ]"
        case .warning: return "[warn]"
        case .failure: return "[FAIL]"
        }
    }
}
