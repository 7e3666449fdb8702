import Foundation

/// `provision --json`: the fields the tests read.
package struct ProvisionReportMirror: Decodable {
    package let command: String
    package let dryRun: Bool
    package let csv: String
    package let store: String
    package var storeCreated: Bool?
    package let rows: Int
    package let created: Int
    package let existing: Int
    package let failed: Int
    package let skipped: Int
    package let qrCodesWritten: Int
    package let codesClaimed: Int
    package let codesUnclaimed: Int
    package let failures: [Failure]
    package let possibleDuplicates: [PossibleDuplicate]
    package let possibleDuplicateCount: Int
    package let codesVerifiedRemotely: Int
    package let codesNotVerifiedRemotely: Int
    package let columns: [Column]
    package let unknownColumns: [String]
    package let otherRunDetected: Bool
    package var manifest: String?
    package var manifestFormat: ManifestFormat?
    package var remote: Remote?
    package var sheets: Sheets?

    package struct Column: Decodable {
        package let header: String
        package let field: String
        package let matched: String
    }

    package struct ManifestFormat: Decodable {
        package let delimiter: String
        package let byteOrderMark: Bool
    }

    package struct Sheets: Decodable {
        package let path: String
        package var invitations: Int?
        package var errorKind: String?
        package var waitingForClaims: Int?
    }

    package struct Failure: Decodable {
        package let line: Int
        /// The row a spreadsheet shows the line on.
        package let row: Int
        package let error: String
    }

    package struct PossibleDuplicate: Decodable {
        package let line: Int
        package let skipped: Bool
        package let matches: Match
        package let look: String

        package struct Match: Decodable {
            package let source: String
            package var line: Int?
            package var familyName: String?
            package var familyId: String?
            package var externalId: String?
        }
    }

    package struct Remote: Decodable {
        package var errorKind: String?
        package var stopKind: String?
        package var uploadStopKind: String?
        package var uploadOutcome: String?
        package var uploadError: String?
        package var unavailable: String?
        package var uploaded: Int?
        package var uploadWaiting: Int?
        package var next: String?
    }
}
