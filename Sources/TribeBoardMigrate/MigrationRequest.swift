import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote

/// What `migrate` moves: legacy record types to the current ones in one container, or every
/// TribeBoard record from one container to another.
package enum MigrationMode: String, Sendable, Encodable {
    case legacyTypes = "legacy-types"
    case container
}

/// What happens to a migrated family whose code another family already holds at the destination.
package enum CodeConflictPolicy: String, Sendable, Encodable, CaseIterable {
    /// The audit's rule: the oldest keeps the code, a newer migrated family gets a new one.
    case repair
    /// Only listed: the family is not migrated.
    case report
}

/// The three record kinds of the app, under their current and legacy record types.
package enum MigratedKind: String, Sendable, Encodable, CaseIterable {
    case family
    case userProfile = "user_profile"
    case membership

    var currentType: String {
        switch self {
        case .family: return RecordMapping.familyType
        case .userProfile: return RecordMapping.userProfileType
        case .membership: return RecordMapping.membershipType
        }
    }

    var legacyType: String { "CK" + currentType }

    init?(recordType: String?) {
        guard
            let kind = Self.allCases.first(where: {
                $0.currentType == recordType || $0.legacyType == recordType
            })
        else { return nil }
        self = kind
    }
}

/// One run of `migrate`.
package struct MigrationRequest: Sendable {
    package var mode: MigrationMode
    package var storePath: String
    /// False: a plan, nothing written anywhere.
    package var apply = false
    /// Legacy records are deleted once their copies are verified (legacy-types only).
    package var deleteSource = false
    /// Legacy records --delete-source leaves where they are (`--keep-source NAME`).
    package var keepSource: Set<String> = []
    package var onCodeConflict: CodeConflictPolicy = .repair
    /// Where the QR codes of re-coded families go (`DIR/qr/FAMILY_ID.png`).
    package var outputDirectory: String?
    package var showCodes = false

    package init(mode: MigrationMode, storePath: String) {
        self.mode = mode
        self.storePath = storePath
    }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }

    /// The record types read at the source.
    var sourceTypes: [String] {
        switch mode {
        case .legacyTypes: return MigratedKind.allCases.map(\.legacyType)
        case .container: return MigratedKind.allCases.flatMap { [$0.currentType, $0.legacyType] }
        }
    }

    /// Source types a container may simply not have: the legacy ones always; for a container
    /// copy, the current ones too (development makes a type on its first write, so a source that
    /// never had a membership has no Membership type). The destination's Family must exist.
    var sourceTypesThatMayBeAbsent: Set<String> {
        Set(
            MigratedKind.allCases.map(\.legacyType)
                + (mode == .container ? MigratedKind.allCases.map(\.currentType) : []))
    }
}

/// The two sides of a migration; the same client twice for legacy-types.
package struct MigrationEndpoints: Sendable {
    package let source: CloudKitClient
    package let destination: CloudKitClient

    package init(source: CloudKitClient, destination: CloudKitClient) {
        self.source = source
        self.destination = destination
    }

    /// Names the pair of sides, so a checkpoint is only ever resumed by the same migration. The
    /// key is kept in the store: a password in a base URL stays out of it (masked).
    func runKey(_ mode: MigrationMode) -> String {
        func side(_ configuration: CloudKitConfiguration) -> String {
            "\(configuration.displayBaseURL)|\(configuration.container)|\(configuration.environment.rawValue)|\(configuration.database.rawValue)"
        }
        return
            "\(mode.rawValue) \(side(source.configuration)) -> \(side(destination.configuration))"
    }
}
