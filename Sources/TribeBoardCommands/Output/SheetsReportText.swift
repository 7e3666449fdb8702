import TribeBoardSheets

/// `tribeboard sheets`' summary as text: what was written and that it must be kept private.
enum SheetsReportText {
    /// `--verify`'s line (it fails with an error when a card does not pass).
    static func verification(_ report: SheetVerifier.Report) -> String {
        "verified \(report.pdf): \(TerminalText.count(report.cards, "card", "cards")) on \(TerminalText.count(report.pages, "page", "pages")), "
            + "every QR code decoded (pdftoppm, zbarimg) and the same as the code printed beside it, each a family's"
    }

    static func render(_ report: SheetsReport) -> String {
        let invitations =
            report.layout == .cards
            ? TerminalText.count(report.invitations, "card", "cards")
            : TerminalText.count(report.invitations, "letter", "letters")
        var lines: [String] = []
        let what = "\(invitations) on \(TerminalText.count(report.pages, report.paper.rawValue + " page", report.paper.rawValue + " pages"))"
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
            if check.store == nil {
                lines.append("the manifest's codes are printed unchecked: no store was read")
            }
        }
        let (one, many) = report.layout == .cards ? ("card", "cards") : ("letter", "letters")
        if let verification = report.verification { lines.append(Self.verification(verification)) }
        if report.tallerPages > 0 {
            lines.append(
                TerminalText.count(report.tallerPages, "page", "pages")
                    + " of taller cards (3 or 2 rows), for their text to fit whole")
        }
        if report.shrunk > 0 {
            let has = report.shrunk == 1 ? "has its" : "have their"
            lines.append(
                TerminalText.count(report.shrunk, one, many)
                    + " \(has) title or wording in smaller type, to fit")
        }
        if !report.cuts.isEmpty {
            lines.append(
                TerminalText.count(report.cuts.invitations, one, many)
                    + " printed with text cut (--allow-cut): \(report.cuts.summary)")
        }
        if !report.missingCharacters.isEmpty {
            lines.append(TerminalText.count(report.missingCharacters.invitations, one, many)
                + " with characters no installed font has, printed as boxes (install a font for them): \(report.missingCharacters.summary)")
        }
        if report.unclaimedPrinted > 0 {
            lines.append(
                TerminalText.count(report.unclaimedPrinted, one, many)
                    + " with codes not claimed in CloudKit yet (no remote configured,"
                    + " or --include-unclaimed): until `resync` with a remote claims them, another device could take them"
            )
        }
        let holds = report.output == nil ? "preview shows" : "PDF holds"
        lines.append(
            "mode 600: the \(holds) families' codes; keep it private and delete it once printed")
        return lines.joined(separator: "\n") + "\n"
    }
}
