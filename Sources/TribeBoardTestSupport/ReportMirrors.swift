import Foundation

// The commands' `--json` reports as a script reads them, decoded by the tests' own types (never the
// toolkit's report types: a renamed or dropped key must fail here, not follow the rename). Each
// mirror declares only the keys the tests read; a key the report always writes is non-optional,
// so its absence fails the decoding.

/// stdout of a run that was not the report a test expected: the type, why, and what was printed.
package struct ReportDecodingError: Error, CustomStringConvertible {
    package let type: String
    package let underlying: any Error
    package let stdout: String
    package let stderr: String

    package var description: String {
        "stdout is not one \(type) (\(underlying)):\n\(stdout)\nstderr: \(stderr)"
    }
}

extension ProcessRunner.Result {
    /// stdout as exactly one JSON document of the given mirror (trailing text would not decode).
    package func report<Mirror: Decodable>(_ type: Mirror.Type) throws -> Mirror {
        do {
            return try JSONDecoder().decode(type, from: Data(stdout.utf8))
        } catch {
            throw ReportDecodingError(type: String(describing: type), underlying: error, stdout: stdout, stderr: stderr)
        }
    }
}

/// The keys of a JSON object, whatever they hold: what "unset fields are left out" is about (a
/// mirror's optional field cannot tell a left-out key from a `null`).
package struct JSONKeys: Decodable {
    package let keys: Set<String>
    /// The keys of the members that are objects themselves, by member.
    package let objects: [String: JSONKeys]

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        keys = Set(container.allKeys.map(\.stringValue))
        var objects: [String: JSONKeys] = [:]
        for key in container.allKeys {
            // A member that is not an object (a number, a list…) has no keys: not listed.
            if let nested = try? container.decode(JSONKeys.self, forKey: key) { objects[key.stringValue] = nested }
        }
        self.objects = objects
    }
}

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

/// `resync --json`: how it ended and what it set aside.
package struct ResyncReportMirror: Decodable {
    package var stopKind: String?
    package var stoppedBy: String?
    package let exitKind: String
    package let synced: Int
    package let failed: Int
    package let quarantined: Int
    package let conflicts: Int
    package var metricsFileError: String?
    package let setAside: [Entry]
    package let unfinishedCreations: Int
    package let unfinishedCreationIds: [String]
    package let heldBack: Int
    package var awaitingInvitedAdmin: Int?

    package struct Entry: Decodable {
        package let id: String
        package let status: String
        package var lastError: String?
        package var conflictWith: String?
    }
}

/// `resync --list --json`: the records set aside.
package struct ResyncListMirror: Decodable {
    package let entries: [ResyncReportMirror.Entry]
}

/// `resync --release --json`: what was released and what was not set aside.
package struct ResyncReleaseMirror: Decodable {
    package let command: String
    package let notSetAside: [String]
}

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

/// `sheets --json`: what was drawn, cut and shrunk.
/// `sheets --verify FILE.pdf --json`.
package struct SheetsVerificationMirror: Decodable {
    package let pdf: String
    package let pages: Int
    package let cards: Int
    package let failed: Int
}

package struct SheetsReportMirror: Decodable {
    package let invitations: Int
    package let pages: Int
    package let mode: String
    package let shrunk: Int
    package let cuts: Cuts
    package var tallerPages: Int?
    package var output: String?
    package var preview: String?
    package var manifestCheck: ManifestCheck?
    package var missingCharacters: MissingCharacters?
    /// Cards printed with codes no CloudKit claim holds (no remote, or --include-unclaimed).
    package var unclaimedPrinted: Int?

    package struct Cuts: Decodable {
        package let invitations: Int
        package let fields: [String: Int]
        package let first: [Family]
    }

    package struct Family: Decodable {
        package let familyId: String
        /// For a cut: the fields cut, and for each "data" or "template".
        package var fields: [String]?
        package var causes: [String: String]?
    }

    package struct MissingCharacters: Decodable {
        package let invitations: Int
        package let first: [Missing]
    }

    package struct Missing: Decodable {
        package let familyId: String
        package let familyName: String
        package let fields: [String]
        /// "U+1E290 TOTO LETTER PA"
        package let characters: [String]
    }

    package struct ManifestCheck: Decodable {
        package let outdated: Int
        package let first: [Family]
    }
}

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

/// `resync --reupload --json`: the families marked, and the ids of none.
package struct ReuploadReportMirror: Decodable {
    package let marked: [String]
    package let unknown: [String]
}

/// `remove --json`: each outcome counted, the first families listed.
package struct RemoveReportMirror: Decodable {
    package let command: String
    package let applied: Bool
    package let remote: Bool
    package let asked: Int
    package let removed: Int
    package let alreadyRemoved: Int
    package let planned: Int
    package let refused: Int
    package let notFound: Int
    package let unfinished: Int
    package let requests: Int
    package let families: [Family]
    package let codes: String

    package struct Family: Decodable {
        package let query: String
        package var familyId: String?
        package var familyName: String?
        package let outcome: String
        package let unfinishedCreation: Bool
        package let members: [Member]
        package let remoteMembershipsDeleted: Int
        package let remoteFamilyDeleted: Bool
        package let claimsReleased: Int
        package var problem: String?
        package var mergedInto: String?
    }

    package struct Member: Decodable {
        package let membershipId: String
        package let userId: String
        package let displayName: String
        package let role: String
        package let profile: String
    }
}

/// `merge --json`: who moved, and the duplicate's removal.
package struct MergeReportMirror: Decodable {
    package let command: String
    package let applied: Bool
    package let alreadyMerged: Bool
    package let duplicateId: String
    package let keptId: String
    package let members: [Member]
    package let membershipsUploaded: Int
    package var removal: RemoveReportMirror?
    package let duplicateCodeFate: String
    package let reprintCommand: String

    package struct Member: Decodable {
        package let userId: String
        package let displayName: String
        package let role: String
        package let from: String
        package let outcome: String
    }
}

/// `recode --json`: the new code, its claim, and the commands that reprint and upload it.
package struct RecodeReportMirror: Decodable {
    package let applied: Bool
    package let familyId: String
    package let newCode: String?
    package let claimed: Bool
    package let qrFile: String?
    package let manifest: String?
    package let reprintCommand: String
    package let uploadCommand: String
    package let warning: String
}

/// `adopt --json`: both versions, and what the store took.
package struct AdoptReportMirror: Decodable {
    package let command: String
    package let applied: Bool
    package let familyId: String
    package let cloudKitName: String
    package let codeChanged: Bool
    package let members: [String]
    package let setAsideEnded: Bool
    package var reprintCommand: String?
}
