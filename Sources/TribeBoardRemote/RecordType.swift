import TribeBoardCloudKit

/// Every CloudKit record type the toolkit names, in one place: the app's three
/// (docs/cloudkit.md, from the app's data model), the code claims (docs/code-claims.md), and
/// the types of builds before the rename, which audits and migrate read and nothing writes.
/// `Templates/cloudkit-schema.ckdb` defines the current ones; a test keeps the two equal.
package enum RecordType: String, CaseIterable, Sendable, Codable {
    case family = "Family"
    case userProfile = "UserProfile"
    case membership = "Membership"
    case familyCodeClaim = "FamilyCodeClaim"
    case legacyFamily = "CKFamily"
    case legacyUserProfile = "CKUserProfile"
    case legacyMembership = "CKMembership"

    /// The name CloudKit knows the type by.
    package var name: String { rawValue }

    /// A type of the builds before the rename: read, never written.
    package var isLegacy: Bool {
        switch self {
        case .legacyFamily, .legacyUserProfile, .legacyMembership: return true
        case .family, .userProfile, .membership, .familyCodeClaim: return false
        }
    }

    /// The legacy types, in the order the app's current types are listed.
    package static let legacy: [RecordType] = allCases.filter(\.isLegacy)
}

extension CloudKitError {
    /// A legacy record type (`CKFamily`…) the container never had: it simply has no records.
    package var isMissingLegacyType: Bool {
        missingRecordType.flatMap(RecordType.init(rawValue:))?.isLegacy ?? false
    }
}
