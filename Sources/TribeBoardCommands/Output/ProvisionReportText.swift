import Foundation
import TribeBoardDomain
import TribeBoardProvisioning

/// The readable form of a provision report: counts first, then where things are, then failures.
enum ProvisionReportText {
    /// `remote`: the run's CloudKit flags (`adviceFlags`), so that the printed resync reaches it.
    static func render(_ report: ProvisionReport, remote: [String] = []) -> String {
        var lines = counts(report) + files(report)
        if report.dryRun { lines.append(Self.wouldWrite(report)) }
        lines += pending(report, remote: remote) + cloudKit(report)
        if report.otherRunDetected {
            lines.append("Another provision run was writing to the same store; rows it created first are counted as existing.")
        }
        lines += failures(report)
        lines.append(
            String(
                format: "Took %.2f s (%.0f families/s).", report.durationSeconds,
                report.familiesPerSecond))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func counts(_ report: ProvisionReport) -> [String] {
        let verb = report.dryRun ? "Dry run of" : "Provisioned"
        var lines = [
            "\(verb) \(report.csv) into \(report.store)\(report.storeCreated ? " (a new store)" : "")",
            "  rows      \(report.rows)",
            "  \(report.dryRun ? "to create" : "created  ") \(report.created)",
            "  existing  \(report.existing)",
            "  failed    \(report.failed)"
        ]
        if report.skipped > 0 {
            lines.append(
                "  skipped   \(report.skipped) (possible duplicates, --skip-possible-duplicates)")
        }
        if report.possibleDuplicateCount > 0 {
            let count = report.possibleDuplicateCount
            lines.append("Possible duplicates: \(count) new \(count == 1 ? "family has" : "families have") the name and admin of another"
                         + " (warnings above; every one in --json)")
        }
        return lines
    }

    /// Where the QR codes, the manifest and the sheets went, and the columns read other than by
    /// name.
    private static func files(_ report: ProvisionReport) -> [String] {
        var lines: [String] = []
        if let qr = report.qrDirectory {
            lines.append("QR codes:  \(qr) (\(report.qrCodesWritten) written this run)")
        }
        if let manifest = report.manifest {
            let format =
                report.manifestFormat.map {
                    " (\($0.delimiterName)-separated\($0.byteOrderMark ? ", UTF-8 with BOM" : ""))"
                } ?? ""
            lines.append("Manifest:  \(manifest)\(format)")
        }
        let mapped = report.columns.filter { $0.matched != .exact }
        if !mapped.isEmpty {
            lines.append(
                "Columns:   "
                    + mapped.map {
                        "\"\($0.header)\" → \($0.field.rawValue) (\($0.matched.rawValue))"
                    }.joined(separator: ", "))
        }
        if let sheets = report.sheets { lines.append(Self.sheets(sheets)) }
        return lines
    }

    private static func sheets(_ sheets: ProvisionReport.SheetsSummary) -> String {
        let waiting = sheets.waitingForClaims.map { count in
            let (families, codes, them) =
                count == 1
                ? ("family has", "its code is", "it") : ("families have", "their codes are", "them")
            return
                "\(count) \(families) no card yet: \(codes) not claimed in CloudKit; run this command again once CloudKit answers"
                + " to print \(them)"
        }
        if let error = sheets.error { return "Sheets:    not made: \(error)" }
        if sheets.invitations == 0, let waiting { return "Sheets:    not made: \(waiting)" }
        return "Sheets:    \(sheets.path) (\(sheets.invitations ?? 0) cards on \(sheets.pages ?? 0) pages)" + (waiting.map { "; \($0)" } ?? "")
    }

    /// `remote`: the run's CloudKit flags, so that the printed resync reaches it.
    private static func pending(_ report: ProvisionReport, remote: [String]) -> [String] {
        guard let pending = report.pendingSync, pending.total > 0 else { return [] }
        let counts = "\(pending.total) records in the store (\(pending.families) families, \(pending.userProfiles) profiles,"
            + " \(pending.memberships) memberships)"
        guard report.remote?.uploaded == nil else {
            return ["Still waiting after --sync: \(counts)."]
        }
        // Codes checked in CloudKit say a remote is configured: only the upload is left.
        // With the store named: a store outside the working folder (make demo's) is found.
        let resync = "`" + Advice.resync(store: report.store, remote: remote).command + "`"
        let next =
            report.remote == nil
            ? "run \(resync) once a remote is configured"
            : "\(resync) uploads them (or --sync next time)"
        return ["Waiting for resync: \(counts); nothing was uploaded: \(next)."]
    }

    private static func cloudKit(_ report: ProvisionReport) -> [String] {
        guard let remote = report.remote else { return [] }
        let indent = "           "
        var lines = [
            "CloudKit:  codes of \(report.codesVerifiedRemotely) new families checked in CloudKit"
        ]
        if report.codesNotVerifiedRemotely > 0 {
            lines.append(indent + "\(report.codesNotVerifiedRemotely) new families were checked in the local store only and are marked"
                         + " as not remotely verified; resync checks them before uploading")
        }
        lines.append(
            indent + "codes claimed: \(report.codesClaimed)"
                + (report.codesRecoded > 0
                    ? ", \(report.codesRecoded) generated codes replaced (another family had claimed them)"
                    : "")
                + (report.codesUnclaimed > 0
                    ? "; \(report.codesUnclaimed) not claimed yet (resync claims them before they go up)"
                    : ""))
        if let reason = remote.unavailable {
            lines.append(indent + "CloudKit could not be used: \(reason)")
        }
        if let uploaded = remote.uploaded {
            lines.append(
                indent
                    + "--sync uploaded \(uploaded) records; \(remote.uploadWaiting ?? 0) wait to be retried,"
                    + " \(remote.uploadSetAside ?? 0) are set aside"
                    + (remote.uploadError.map { " (\($0))" } ?? ""))
        }
        if let next = remote.next {
            lines.append(
                indent + "Next" + (remote.uploadOutcome?.nextReason.map { " (\($0))" } ?? "")
                    + ": \(next)")
        }
        return lines
    }

    private static func failures(_ report: ProvisionReport) -> [String] {
        guard !report.failures.isEmpty else { return [] }
        var lines = ["Failures:"]
        for failure in report.failures {
            let place =
                failure.row == failure.line
                ? "line \(failure.line)" : "line \(failure.line) (row \(failure.row))"
            lines.append(
                "  \(place)\(failure.externalId.map { " (\($0))" } ?? ""): \(failure.error)")
        }
        if report.failuresNotListed > 0 {
            lines.append("  … and \(report.failuresNotListed) more, "
                         + (report.dryRun ? "not listed (a dry run writes no manifest; a real run lists every one in it)"
                            : "all listed in the manifest"))
        }
        return lines
    }

    /// What the same run without --dry-run would write, since this one wrote nothing.
    static func wouldWrite(_ report: ProvisionReport) -> String {
        var parts = ["\(report.created) new \(report.created == 1 ? "family" : "families") into \(report.store)"]
        if let out = report.outputDirectory {
            parts.append("their QR codes and a manifest of all \(report.rows) rows in \(out)")
        }
        return "Nothing was written (--dry-run). Without it, this run would write "
            + parts.joined(separator: ", ") + "."
    }
}
