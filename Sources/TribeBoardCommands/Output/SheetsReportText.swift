import TribeBoardSheets

/// `tribeboard sheets`' summary as text: what was written and that it must be kept private.
enum SheetsReportText {
    static func render(_ report: SheetsReport) -> String {
        let unit = report.layout == .cards ? "cards" : "letters"
        var lines: [String] = []
        let what = "\(report.invitations) \(unit) on \(report.pages) \(report.paper.rawValue) pages"
        let from = "(from the \(report.source.rawValue), template \(report.template))"
        if let output = report.output {
            lines.append("wrote \(what) to \(output) \(from)")
        } else {
            lines.append("checked \(what) \(from); no PDF written (no --out)")
        }
        if let preview = report.preview { lines.append("first page drawn in \(preview)") }
        if let check = report.manifestCheck {
            if check.outdated > 0 {
                lines.append("\(check.outdated) printed with the store's code: \(check.manifest) is older than the store (\(check.summary))")
            }
            if check.store == nil { lines.append("the manifest's codes are printed unchecked: no store was read") }
        }
        if report.shrunk > 0 { lines.append("\(report.shrunk) \(unit) have their title or wording in smaller type, to fit") }
        if !report.cuts.isEmpty {
            lines.append("\(report.cuts.invitations) \(unit) printed with text cut (--allow-cut): \(report.cuts.summary)")
        }
        lines.append("mode 600: the \(report.output == nil ? "preview shows" : "PDF holds") families' codes; keep it private and delete it once printed")
        return lines.joined(separator: "\n") + "\n"
    }
}
