import GRDB
import TribeBoardDomain

/// A row of `families`: the app's Family model plus the toolkit's import bookkeeping.
/// `code` is kept as stored (a hand-edited store may hold one the format refuses; the audit says so).
public struct Family: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "families"

    public var id: FamilyID
    public var name: String
    public var code: String
    public var createdByUserID: UserID
    public var createdAt: Timestamp
    public var needsSync: Bool
    public var lastSyncDate: Timestamp?
    public var ckRecordID: String?
    public var importKey: String?
    public var sourceLine: Int?
    /// When CloudKit last found the code free; nil: never checked remotely.
    public var codeVerifiedRemotelyAt: Timestamp?

    enum CodingKeys: String, CodingKey {
        case id, name, code
        case createdByUserID = "created_by_user_id", createdAt = "created_at", needsSync = "needs_sync"
        case lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id", importKey = "import_key"
        case sourceLine = "source_line", codeVerifiedRemotelyAt = "code_verified_remotely_at"
    }
}

/// A row of `user_profiles`.
public struct UserProfile: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "user_profiles"

    public var id: UserID
    public var displayName: String
    /// Nil until the person signs in to the app.
    public var appleUserIdHash: String?
    public var avatarURL: String?
    public var createdAt: Timestamp
    public var needsSync: Bool
    public var lastSyncDate: Timestamp?
    public var ckRecordID: String?

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name", appleUserIdHash = "apple_user_id_hash", avatarURL = "avatar_url"
        case createdAt = "created_at", needsSync = "needs_sync", lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id"
    }
}

/// A row of `memberships`: who belongs to which family, in what role.
public struct Membership: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "memberships"

    public var id: MembershipID
    public var familyID: FamilyID
    public var userID: UserID
    public var role: MembershipRole
    public var status: MembershipStatus
    public var joinedAt: Timestamp
    public var lastRoleChangeAt: Timestamp?
    public var needsSync: Bool
    public var lastSyncDate: Timestamp?
    public var ckRecordID: String?

    enum CodingKeys: String, CodingKey {
        case id, role, status
        case familyID = "family_id", userID = "user_id", joinedAt = "joined_at", lastRoleChangeAt = "last_role_change_at"
        case needsSync = "needs_sync", lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id"
    }
}

extension MembershipRole: DatabaseValueConvertible {}
extension MembershipStatus: DatabaseValueConvertible {}
extension FamilyCreationState: DatabaseValueConvertible {}
