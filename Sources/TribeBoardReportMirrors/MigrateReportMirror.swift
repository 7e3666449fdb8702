import Foundation

/// `migrate legacy-types|container --json`: counts by outcome, each record's entry, deletion.
package struct MigrateReportMirror: Decodable {
    package let destination: Destination
    package let counts: [String: Int]
    package let sourceDeleted: Int
    package let sourceKept: Int
    package let exitKind: String
    package let entries: [Entry]
    package var codesFile: String?
    package var deletionRefused: String?
    package var keepToFinish: [String]?
    package var next: String?
    package var verification: Verification?
    package var stoppedBy: String?
    package var stopKind: String?

    package struct Destination: Decodable {
        package let baseURL: String
    }

    package struct Entry: Decodable {
        package let sourceName: String
        package let outcome: String
        package var reason: String?
        package var recode: Recode?
        package var sourceKept: String?
    }

    package struct Recode: Decodable {
        package let oldCode: String
        package let newCode: String
        package let keptBy: String
        package let reason: String
    }

    package struct Verification: Decodable {
        package let mismatched: Int
    }

    /// The entries by source name (the first of a repeated name).
    package var byName: [String: Entry] {
        Dictionary(entries.map { ($0.sourceName, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// `migrate claims --json`: the claims backfill.
package struct ClaimBackfillMirror: Decodable {
    package let familiesRead: Int
    package let codes: Int
    package let toClaim: Int
    package let claimed: Int
    package let duplicates: [Duplicate]
    package let heldByOthers: [Held]
    package let withoutCode: [String]

    package struct Duplicate: Decodable {
        package let keptBy: String
        package let others: [String]
    }

    package struct Held: Decodable {
        package var claimedBy: String?
        package let oldest: String
        /// `family`, `foreign` or `squatter`.
        package let holder: String
        package let creator: String?
    }
}
