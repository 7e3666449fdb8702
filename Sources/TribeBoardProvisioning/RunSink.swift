import Foundation
import TribeBoardCSV
import Logging
import TribeBoardSupport

/// Collects row results in input order: counts them into the report, logs the first failures and
/// reports progress.
struct RunSink {
    var report: ProvisionReport
    let logger: Logger
    let total: Int
    let started: ContinuousClock.Instant
    let onProgress: Provisioner.ProgressHandler
    /// How many failed rows are logged as they happen (`ProvisionRequest.loggedFailures`).
    var loggedFailures = Provisioner.loggedFailureLimit
    /// The input's spreadsheet rows, named with its lines.
    var rows = SpreadsheetRows()

    mutating func finish(_ ticket: QRCodeStage.Ticket, manifest: ManifestWriter) throws {
        let rows = ticket.results.withLock { $0 }
        for row in rows {
            try manifest.append(row)
            count(row)
        }
        report.qrCodesWritten += ticket.written.load(ordering: .relaxed)
        report.qrWriteFailures += ticket.failedWrites.load(ordering: .relaxed)
        progress()
    }

    mutating func record(_ row: ProvisionRowResult) {
        count(row)
        if report.rows % 256 == 0 { progress() }
    }

    private mutating func count(_ row: ProvisionRowResult) {
        report.record(row, spreadsheet: rows)
        warnIfPossibleDuplicate(row)
        guard row.status == .failed else { return }
        if report.failed <= loggedFailures {
            logger.warning(
                "row failed",
                metadata: [
                    "line": "\(row.line)", "row": "\(rows.row(ofLine: row.line))",
                    "error": "\(row.error ?? "")"
                ])
        } else if report.failed == loggedFailures + 1, loggedFailures > 0 {
            // A dry run writes no manifest: its summary lists the first failures, a real run's
            // manifest all.
            logger.warning(report.dryRun ? "further row failures are counted in the summary only (a dry run writes no manifest)"
                           : "further row failures are listed in the manifest and the summary only")
        }
    }

    /// On stderr as the rows come; bounded like failures, every one of them in `--json`.
    private func warnIfPossibleDuplicate(_ row: ProvisionRowResult) {
        guard let duplicate = row.possibleDuplicate,
            row.status == .created || row.status == .skipped
        else { return }
        if report.possibleDuplicateCount <= Provisioner.loggedFailureLimit {
            let what =
                duplicate.skipped
                ? "skipped a possible duplicate" : "possible duplicate (created anyway)"
            let externalID = duplicate.externalId.map { " (external_id \($0))" } ?? ""
            logger.warning("""
                \(what): line \(duplicate.line)\(externalID) has the name and admin of \
                \(duplicate.matchDescription); look: \(duplicate.look)
                """)
        } else if report.possibleDuplicateCount == Provisioner.loggedFailureLimit + 1 {
            logger.warning(
                "further possible duplicates are listed in --json only (possibleDuplicates)")
        }
    }

    var elapsed: String {
        String(format: "%.2fs", (ContinuousClock.now - started).seconds)
    }

    private func progress() {
        onProgress(
            WorkProgress(
                processed: report.rows, total: total, failed: report.failed, since: started))
    }
}
