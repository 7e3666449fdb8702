import Foundation
import TribeBoardCloudKit
import TribeBoardStore

/// The outcome of one provision run, rendered as text or JSON by the commands. The JSON keys are
/// a stable interface: add keys, do not rename them.
public struct ProvisionReport: Encodable, Sendable {
    public struct RowFailure: Encodable, Sendable, Equatable {
        public let line: Int
        public let externalId: String?
        public let error: String
    }

    public var command = "provision"
    public var dryRun: Bool
    public var csv: String
    public var store: String
    public var outputDirectory: String?
    public var manifest: String?
    public var qrDirectory: String?
    public var rows = 0
    public var created = 0
    public var existing = 0
    public var failed = 0
    public var qrCodesWritten = 0
    public var qrWriteFailures = 0
    /// Records across the whole store that still wait for `resync` (none are uploaded here).
    public var pendingSync: TribeBoardStore.PendingSyncCounts?
    public var unknownColumns: [String] = []
    public var otherRunDetected = false
    public var durationSeconds = 0.0
    public var familiesPerSecond = 0.0
    /// The first failures; every one of them is in the manifest.
    public var failures: [RowFailure] = []
    public var failuresNotListed = 0
    /// New families whose code CloudKit confirmed free, and those checked locally only.
    public var codesVerifiedRemotely = 0
    public var codesNotVerifiedRemotely = 0
    /// Present when a remote is configured.
    public var remote: RemoteSummary?

    public struct RemoteSummary: Encodable, Sendable {
        /// Why remote checking stopped during the run, if it did.
        public var unavailable: String?
        /// `network`, `transient`, `configuration` or `data`.
        public var errorKind: CloudKitError.Category?
        /// Records uploaded by --sync, and those that stayed pending.
        public var uploaded: Int?
        public var uploadFailed: Int?
        public var uploadError: String?

        init(failure: CloudKitError?) {
            unavailable = failure?.localizedDescription
            errorKind = failure?.category
        }
    }

    static let listedFailureLimit = 100

    mutating func record(_ row: ProvisionRowResult) {
        rows += 1
        switch row.status {
        case .created:
            created += 1
            if row.codeVerifiedRemotely == true { codesVerifiedRemotely += 1 } else { codesNotVerifiedRemotely += 1 }
        case .existing: existing += 1
        case .failed:
            failed += 1
            if failures.count < Self.listedFailureLimit {
                failures.append(RowFailure(line: row.line, externalId: row.externalId, error: row.error ?? "failed"))
            } else {
                failuresNotListed += 1
            }
        }
    }
}

/// Progress as the run goes, for a progress bar or periodic log lines.
public struct ProvisionProgress: Sendable {
    public let processed: Int
    public let total: Int
    public let created: Int
    public let existing: Int
    public let failed: Int
    public let elapsed: Duration

    package init(processed: Int, total: Int, created: Int, existing: Int, failed: Int, elapsed: Duration) {
        (self.processed, self.total, self.created, self.existing, self.failed, self.elapsed) = (processed, total, created, existing, failed, elapsed)
    }
}
