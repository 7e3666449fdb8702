import Foundation
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardRemote

/// The outcome of one provision run, rendered as text or JSON by the commands. The JSON keys are
/// a stable interface: add keys, do not rename them.
package struct ProvisionReport: Encodable, Sendable {
    package struct RowFailure: Encodable, Sendable, Equatable {
        package let line: Int
        /// The row a spreadsheet shows it on (fewer than `line` when notes above hold line breaks).
        package var row: Int
        package let externalId: String?
        package let error: String
    }

    package var command = "provision"
    package var dryRun: Bool
    package var csv: String
    package var store: String
    /// This run created the store (nothing was at its path): a new store is said, not silent.
    package var storeCreated = false
    package var outputDirectory: String?
    package var manifest: String?
    package var qrDirectory: String?
    /// How the manifest was written (its delimiter and byte order mark).
    package var manifestFormat: ManifestDialect?
    /// Which header of the input fed each column, and how it was matched.
    package var columns: [ColumnSource] = []
    package var rows = 0
    package var created = 0
    package var existing = 0
    package var failed = 0
    /// Rows left out as possible duplicates (`--skip-possible-duplicates`).
    package var skipped = 0
    package var qrCodesWritten = 0
    package var qrWriteFailures = 0
    /// Records across the whole store that still wait for `resync` (after --sync, what it left).
    package var pendingSync: TribeBoardStore.PendingSyncCounts?
    /// The first `listedUnknownColumnLimit` columns the toolkit does not know (each cut at 64
    /// characters), and how many there are in all: a hostile header of a million columns is a
    /// count, not a million-entry list.
    package var unknownColumns: [String] = []
    package var unknownColumnCount = 0
    package var otherRunDetected = false
    package var durationSeconds = 0.0
    package var familiesPerSecond = 0.0
    /// The first failures; every one of them is in the manifest.
    package var failures: [RowFailure] = []
    package var failuresNotListed = 0
    /// New families (created, or skipped) that match another on name and admin: the first
    /// `listedFailureLimit`, and how many in all.
    package var possibleDuplicates: [PossibleDuplicate] = []
    package var possibleDuplicateCount = 0
    /// New families whose code CloudKit confirmed free, and those checked locally only.
    package var codesVerifiedRemotely = 0
    package var codesNotVerifiedRemotely = 0
    /// Codes claimed in CloudKit by this run (`CodeClaim`), generated codes replaced because
    /// another family had claimed them, and families whose code is not claimed yet (offline, or
    /// CloudKit did not answer): resync claims those before they go up.
    package var codesClaimed = 0
    package var codesRecoded = 0
    package var codesUnclaimed = 0
    /// Present when a remote is configured.
    package var remote: RemoteSummary?
    /// Present with --sheets: the PDF made, or why it was not (the families are provisioned
    /// either way, and this report says so).
    package var sheets: SheetsSummary?

    package struct SheetsSummary: Encodable, Sendable {
        package var path: String
        package var invitations: Int?
        package var pages: Int?
        package var error: String?
        /// As the error document would name it (`sheets.cannotCreate`…).
        package var errorKind: String?
        /// New families left off the cards: their codes are not claimed in CloudKit yet (the run
        /// ends 75), so they have no code to print until a run claims them.
        package var waitingForClaims: Int?

        package init(
            path: String, invitations: Int? = nil, pages: Int? = nil, error: String? = nil,
            errorKind: String? = nil,
            waitingForClaims: Int? = nil
        ) {
            (self.path, self.invitations, self.pages, self.error, self.errorKind) = (
                path, invitations, pages, error, errorKind
            )
            self.waitingForClaims = waitingForClaims
        }
    }

    package struct RemoteSummary: Encodable, Sendable {
        /// Why remote checking stopped during the run, if it did.
        package var unavailable: String?
        /// What stopped it, as the error document names the error (`cloudkit.network`…).
        package var stopKind: String?
        /// `network`, `transient`, `configuration` or `data`.
        package var errorKind: CloudKitError.Category?
        /// Records uploaded by --sync, and those that stayed pending.
        package var uploaded: Int?
        package var uploadFailed: Int?
        package var uploadError: String?
        /// What stopped the upload, as resync's `stopKind` (or `lock.held`: another run syncs).
        package var uploadStopKind: String?
        /// How the --sync upload ended, as `resync` would say it (`success`, `setAside`,
        /// `tryLater`, `configuration`).
        package var uploadOutcome: UploadOutcome?
        /// After --sync: records waiting to retry (throttled, with when in `resync --list`), set
        /// aside for a person (quarantined, in conflict, or memberships of such a family), and the
        /// command to run next.
        package var uploadWaiting: Int?
        package var uploadSetAside: Int?
        package var next: String?

        init(failure: CloudKitError?) {
            unavailable = failure?.localizedDescription
            errorKind = failure?.category
            stopKind = failure?.kind
        }
    }

    static let listedFailureLimit = 100
    static let listedUnknownColumnLimit = 5
    static let listedColumnNameLength = 64

    mutating func noteUnknownColumns(_ columns: [String]) {
        unknownColumnCount = columns.count
        unknownColumns = columns.prefix(Self.listedUnknownColumnLimit).map { name in
            name.count > Self.listedColumnNameLength
                ? name.prefix(Self.listedColumnNameLength) + "…" : name
        }
    }

    mutating func record(
        _ row: ProvisionRowResult, spreadsheet: SpreadsheetRows = SpreadsheetRows()
    ) {
        rows += 1
        switch row.status {
        case .created:
            created += 1
            if row.codeVerifiedRemotely == true {
                codesVerifiedRemotely += 1
            } else {
                codesNotVerifiedRemotely += 1
            }
        case .existing: existing += 1
        case .skipped: skipped += 1
        case .failed:
            failed += 1
            if failures.count < Self.listedFailureLimit {
                failures.append(
                    RowFailure(
                        line: row.line, row: spreadsheet.row(ofLine: row.line),
                        externalId: row.externalId,
                        error: row.error ?? "failed"))
            } else {
                failuresNotListed += 1
            }
        }
        if let duplicate = row.possibleDuplicate, row.status == .created || row.status == .skipped {
            possibleDuplicateCount += 1
            if possibleDuplicates.count < Self.listedFailureLimit {
                possibleDuplicates.append(duplicate)
            }
        }
    }
}
