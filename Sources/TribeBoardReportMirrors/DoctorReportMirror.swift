import Foundation

/// One check of `doctor --json` (also a finding of `doctor family --json`).
package struct DoctorCheckMirror: Decodable {
    package let id: String
    package let section: String
    package let status: String
    package let checked: String
    package let found: String
    package var target: String?
    package var action: String?
    package var locations: [Location]?
    package var count: Int?
    package var sample: [Sample]?

    package struct Location: Decodable {
        package let path: String
        package let line: Int
    }

    package struct Sample: Decodable {
        package var code: String?
    }
}

/// `doctor --json`: the checklist.
package struct DoctorReportMirror: Decodable {
    package let passed: Bool
    package let fallback: Fallback
    package let summary: [String: Int]
    package let checks: [DoctorCheckMirror]

    package struct Fallback: Decodable {
        package let mode: String
        package var reason: String?
    }

    /// The checks by id (the first of a repeated id, as a target's checks share ids).
    package var byID: [String: DoctorCheckMirror] {
        Dictionary(checks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// `doctor family --json`: one family, or the names that matched.
package struct FamilyReportMirror: Decodable {
    package var family: Family?
    package let remote: Remote
    package let passed: Bool
    package let findings: [DoctorCheckMirror]
    package let nameMatches: [NameMatch]
    package let nameMatchesTotal: Int

    package struct Family: Decodable {
        package let name: String
        package var code: String?
        package var importKey: String?
        package var adminState: String?
        package var halfMade: Bool?
    }

    package struct Remote: Decodable {
        package let status: String
    }

    package struct NameMatch: Decodable {
        package let id: String
        package let sync: String
        package let createdAt: String
        package var externalId: String?
        package var admin: String?
    }
}
