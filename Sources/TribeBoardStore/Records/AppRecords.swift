import GRDB
import TribeBoardDomain

/// A row of `families`: the app's Family model plus the toolkit's import bookkeeping.
/// `code` is kept as stored (a hand-edited store may hold one the format refuses; the audit says so).
package struct Family: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "families"

    package var id: FamilyID
    package var name: String
    package var code: String
    package var createdByUserID: UserID
    package var createdAt: Timestamp
    package var needsSync: Bool
    package var lastSyncDate: Timestamp?
    package var ckRecordID: String?
    package var importKey: String?
    package var sourceLine: Int?
    /// When CloudKit last found the code free; nil: never checked remotely.
    package var codeVerifiedRemotelyAt: Timestamp?

    enum CodingKeys: String, CodingKey {
        case id, name, code
        case createdByUserID = "created_by_user_id", createdAt = "created_at", needsSync = "needs_sync"
        case lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id", importKey = "import_key"
        case sourceLine = "source_line", codeVerifiedRemotelyAt = "code_verified_remotely_at"
    }
}

/// A row of `user_profiles`.
package struct UserProfile: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "user_profiles"

    package var id: UserID
    package var displayName: String
    /// Nil until the person signs in to the app.
    package var appleUserIdHash: String?
    package var avatarURL: String?
    package var createdAt: Timestamp
    package var needsSync: Bool
    package var lastSyncDate: Timestamp?
    package var ckRecordID: String?

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name", appleUserIdHash = "apple_user_id_hash", avatarURL = "avatar_url"
        case createdAt = "created_at", needsSync = "needs_sync", lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id"
    }
}

/// A row of `memberships`: who belongs to which family, in what role.
package struct Membership: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "memberships"

    package var id: MembershipID
    package var familyID: FamilyID
    package var userID: UserID
    package var role: MembershipRole
    package var status: MembershipStatus
    package var joinedAt: Timestamp
    package var lastRoleChangeAt: Timestamp?
    package var needsSync: Bool
    package var lastSyncDate: Timestamp?
    package var ckRecordID: String?

    enum CodingKeys: String, CodingKey {
        case id, role, status
        case familyID = "family_id", userID = "user_id", joinedAt = "joined_at", lastRoleChangeAt = "last_role_change_at"
        case needsSync = "needs_sync", lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id"
    }
}

extension MembershipRole: DatabaseValueConvertible {}
extension MembershipStatus: DatabaseValueConvertible {}
extension FamilyCreationState: DatabaseValueConvertible {}
