import Foundation
import TribeBoardSupport

/// The report as CSV for spreadsheets: one row per family of each finding (a finding that names
/// none, such as an unreadable snapshot line, has one row with empty family columns).
package enum AuditCSV {
    static let header = ["severity", "category", "code", "count", "message", "action", "family_id", "family_name",
                         "location", "family_code", "record_type", "created_at", "snapshot_line"]

    package static func render(_ report: AuditReport) -> String {
        var lines = [line(header)]
        for finding in report.findings {
            let common = [finding.severity.rawValue, finding.category.rawValue, finding.code ?? "", String(finding.count),
                          finding.message, finding.action]
            let families = finding.families.isEmpty ? [nil] : finding.families.map { Optional($0) }
            for family in families {
                lines.append(line(common + [family?.id ?? "", family?.name ?? "", family?.location.rawValue ?? "", family?.code ?? "",
                                            family?.recordType ?? "", family?.createdAt ?? "", family?.snapshotLine.map(String.init) ?? ""]))
            }
        }
        return lines.joined()
    }

    private static func line(_ fields: [String]) -> String {
        fields.map(CSVField.escape).joined(separator: ",") + "\r\n"
    }
}
