import Foundation
import TribeBoardAudit

/// `recode` as people read it: the change, where its files went, the reprint command, the warning.
enum RecodeReportText {
    static func render(_ report: RecodeReport) -> String {
        let who =
            "\(report.familyId) \"\(report.familyName)\""
            + (report.externalId.map { " (external id \($0))" } ?? "")
        var lines: [String] = []
        if report.applied {
            lines.append(
                "Recoded \(who): \(report.oldCode) -> \(report.newCode ?? "?")"
                    + (report.claimed
                        ? ", claimed in CloudKit" : ", to be claimed by the next resync"))
            if let qrFile = report.qrFile { lines.append("  QR code: \(qrFile)") }
            if let manifest = report.manifest { lines.append("  manifest: \(manifest)") }
            // In the order to do them: the new card first, then the upload that retires the old
            // one.
            lines.append("  1. reprint its card: \(report.reprintCommand ?? "")")
            lines.append("  2. upload the change: \(report.uploadCommand)")
        } else {
            // Nothing is made yet: a card printed now would show the old code.
            lines.append(
                "Would recode \(who): \(report.oldCode) -> a new code (dry run; nothing changed)")
            lines.append("  to apply: \(report.applyCommand ?? "")")
            lines.append("  then reprint its card (the command comes with the applied run) and upload the change: \(report.uploadCommand)")
        }
        lines.append("  warning: \(report.warning)")
        return lines.joined(separator: "\n") + "\n"
    }
}
