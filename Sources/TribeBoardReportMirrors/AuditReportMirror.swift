import Foundation

/// `audit --json`: counts by category, findings, and the repair.
package struct AuditReportMirror: Decodable {
    package let errors: Int
    /// Why CloudKit was not read, when the store was audited alone.
    package var remoteNotRead: String?
    package let counts: [String: Int]
    package var awaitingInvitedAdmin: Int?
    package var legacyKept: Int?
    package let findings: [Finding]
    package var repair: Repair?

    package struct Finding: Decodable {
        package let category: String
        package var code: String?
        package let message: String
        package let action: String
        package let families: [Family]
        /// Aggregated findings: how many families or records (`families` is a sample).
        package var count: Int?

        package struct Family: Decodable {
            package let id: String
        }
    }

    package struct Repair: Decodable {
        package let applied: Bool
        package let changes: [Change]
        package let manual: [Manual]

        package struct Change: Decodable {
            package var newCode: String?
        }

        package struct Manual: Decodable {
            package let recordName: String
        }
    }
}
