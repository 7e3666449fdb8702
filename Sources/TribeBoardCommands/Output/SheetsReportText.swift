import TribeBoardSheets

/// `tribeboard sheets`' summary as text: what was written and that it must be kept private.
enum SheetsReportText {
    static func render(_ report: SheetsReport) -> String {
        let unit = report.layout == .cards ? "cards" : "letters"
        return """
            wrote \(report.invitations) \(unit) on \(report.pages) \(report.paper.rawValue) pages to \(report.output) (from the \(report.source.rawValue), template \(report.template))
            mode 600: the PDF holds every family's code; keep it private and delete it once printed

            """
    }
}
