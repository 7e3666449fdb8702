import Foundation
import TribeBoardCases

/// `remove` and `merge` as text: what was (or would be) done, family by family.
enum CaseReportText {
    static func render(_ report: RemoveReport) -> String {
        var lines: [String] = []
        let verb = report.applied ? "Removed" : "Would remove"
        lines.append("\(verb): \(report.applied ? report.removed : report.planned) of \(report.asked) families"
                     + (report.alreadyRemoved > 0 ? "; already removed: \(report.alreadyRemoved)" : "")
                     + (report.refused > 0 ? "; refused (members besides the admin): \(report.refused)" : "")
                     + (report.notFound > 0 ? "; not found: \(report.notFound)" : "")
                     + (report.unfinished > 0 ? "; unfinished: \(report.unfinished)" : "")
                     + (report.applied && report.remote ? " (\(report.requests) CloudKit requests)" : ""))
        for family in report.families { lines += describe(family) }
        if report.families.count < report.asked {
            let more = report.asked - report.families.count
            lines.append("  … \(more) more (--json lists the first \(report.families.count))")
        }
        lines.append("Codes: \(report.codes)")
        if !report.remote {
            lines.append(
                "CloudKit: not configured; only families that never went up can be removed")
        }
        if !report.applied && report.planned > 0 {
            lines.append("Nothing changed: add --apply to remove")
        }
        if let next = report.nextStep { lines.append("Next: \(next)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ family: RemovedFamily) -> [String] {
        var line = "  \(family.outcome.rawValue)  \(family.familyId ?? family.query)"
        if let name = family.familyName { line += "  \(name)" }
        if let code = family.code { line += "  \(code)" }
        if family.unfinishedCreation { line += "  (creation never completed)" }
        if let kept = family.mergedInto { line += "  merged into \(kept)" }
        var lines = [line]
        for member in family.members {
            lines.append("      \(member.role) \(member.status)  \(member.displayName)  membership \(member.membershipId); profile \(member.profile)")
        }
        if family.claimsReleased + family.claimsNotOurs + family.remoteMembershipsDeleted > 0
            || family.remoteFamilyDeleted
        {
            let record = family.remoteFamilyDeleted ? "the family record" : "no family record"
            lines.append(
                "      CloudKit: \(family.remoteMembershipsDeleted) memberships, \(record), "
                    + "\(family.claimsReleased) claims released"
                    + (family.claimsNotOurs > 0
                        ? ", \(family.claimsNotOurs) held by another family (left)" : ""))
        }
        if let problem = family.problem { lines.append("      \(problem)") }
        return lines
    }
}

extension CaseReportText {
    static func render(_ report: MergeReport) -> String {
        if report.alreadyMerged {
            return "Already merged: \(report.duplicateId) (\(report.duplicateName)) into \(report.keptId) (\(report.keptName)); nothing left to do\n"
        }
        let verb = report.applied ? "Merged" : "Would merge"
        var lines = [
            "\(verb) \(report.duplicateId) (\(report.duplicateName), \(report.duplicateCode)) "
                + "into \(report.keptId) (\(report.keptName))"
        ]
        for member in report.members {
            let from = member.from == "cloudkit" ? "joined in the app" : "in the store"
            lines.append("  \(member.outcome)  \(member.displayName)  \(member.role)  (\(from))")
        }
        if report.membershipsUploaded > 0 {
            lines.append("New memberships created in CloudKit: \(report.membershipsUploaded)")
        }
        if let removal = report.removal { lines += removal.families.flatMap(describe) }
        lines.append("The duplicate's code: \(report.duplicateCodeFate)")
        lines.append("The kept family's card: \(report.reprintCommand)")
        if !report.applied { lines.append("Nothing changed: add --apply to merge") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension CaseReportText {
    static func render(_ report: AdoptReport) -> String {
        var lines = [
            "\(report.applied ? "Adopted" : "Would adopt") CloudKit's version of \(report.familyId)",
            "  store:    \(report.storeName)  \(report.storeCode)",
            "  CloudKit: \(report.cloudKitName)  \(report.cloudKitCode)"
                + (report.codeChanged ? "  (another code)" : "")
        ]
        lines += report.members.map { "    member  \($0)" }
        if report.setAsideEnded {
            lines.append("Its quarantine or conflict is over: resync leaves it as CloudKit has it")
        }
        if let warning = report.warning { lines.append("warning: \(warning)") }
        if let reprint = report.reprintCommand {
            lines.append("Its printed card shows the store's old code: reprint it with \(reprint)")
        }
        if let apply = report.applyCommand {
            lines.append(
                "Nothing changed: to adopt, run \(apply)"
                    + (report.codeChanged
                        ? " (it prints the command that reprints the card with CloudKit's code)"
                        : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
