import Foundation

/// The outcome of one audit. JSON keys are a stable interface.
package struct AuditReport: Encodable, Sendable {
    package struct Scanned: Encodable, Sendable {
        package var localFamilies = 0
        /// Records read from the remote, by record type.
        package var remoteRecords: [String: Int] = [:]
        /// "snapshot FILE", "CloudKit ..." or "none".
        package var remote = "none"
    }

    package var command = "audit"
    package var store: String
    package var scanned = Scanned()
    package var errors = 0
    package var warnings = 0
    /// Per category: how many problems (duplicate groups, families, lines); for the aggregated
    /// categories (one finding each), how many families or records that finding counts.
    package var counts: [String: Int] = [:]
    package var findings: [AuditFinding] = []
    /// CloudKit copies still holding a code a repair replaced locally; resync uploads the new codes.
    package var awaitingResync = 0
    /// Families whose only admin was invited without a hash and has not joined yet: the app
    /// shows them without an admin until then. Expected, so not a finding.
    package var awaitingInvitedAdmin = 0
    /// Legacy records `migrate legacy-types --delete-source --keep-source` left in CloudKit on
    /// purpose (the store's checkpoint says so): counted here, not a finding.
    package var legacyKept = 0
    package var repair: CodeRepairReport?
    package var durationSeconds = 0.0
    /// Why the remote side could not be read: the findings are then the store's alone (the run
    /// still ends with the remote error's status).
    package var remoteNotRead: String?
    /// What uploads the families waiting (a repair's, or those awaiting resync), for this store
    /// and remote, as printed.
    package var uploadCommand: String

    init(store: String, uploadCommand: String) {
        self.store = store
        self.uploadCommand = uploadCommand
    }

    mutating func add(_ finding: AuditFinding) {
        findings.append(finding)
        counts[finding.category.rawValue, default: 0] += finding.category.isAggregated ? finding.count : 1
        switch finding.severity {
        case .error: errors += 1
        case .warning: warnings += 1
        }
    }

    /// Errors first, then by category, each category in the order found.
    mutating func sortFindings() {
        let order = Dictionary(uniqueKeysWithValues: AuditFinding.Category.allCases.enumerated().map { ($1, $0) })
        findings = findings.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element, rhs.element)
            if left.severity != right.severity { return left.severity > right.severity }
            if left.category != right.category { return order[left.category, default: 0] < order[right.category, default: 0] }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Whether anything reaches `threshold` (nil: nothing fails the run).
    package func reaches(_ threshold: AuditFinding.Severity?) -> Bool {
        guard let threshold else { return false }
        return findings.contains { $0.severity >= threshold }
    }
}
