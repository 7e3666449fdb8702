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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, code
        case createdByUserID = "created_by_user_id", createdAt = "created_at", needsSync = "needs_sync"
        case lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id", importKey = "import_key"
        case sourceLine = "source_line", codeVerifiedRemotelyAt = "code_verified_remotely_at"
    }

    /// The toolkit's own columns, never uploaded (resync writes `code_verified_remotely_at`
    /// itself mid-run); every other column is part of the uploaded record.
    static let localColumns: Set<CodingKeys> = [.needsSync, .lastSyncDate, .ckRecordID, .importKey, .sourceLine,
                                                .codeVerifiedRemotelyAt]
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case displayName = "display_name", appleUserIdHash = "apple_user_id_hash", avatarURL = "avatar_url"
        case createdAt = "created_at", needsSync = "needs_sync", lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id"
    }

    static let localColumns: Set<CodingKeys> = [.needsSync, .lastSyncDate, .ckRecordID]
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, role, status
        case familyID = "family_id", userID = "user_id", joinedAt = "joined_at", lastRoleChangeAt = "last_role_change_at"
        case needsSync = "needs_sync", lastSyncDate = "last_sync_date", ckRecordID = "ck_record_id"
    }

    static let localColumns: Set<CodingKeys> = [.needsSync, .lastSyncDate, .ckRecordID]
}

extension MembershipRole: DatabaseValueConvertible {}
extension MembershipStatus: DatabaseValueConvertible {}
extension FamilyCreationState: DatabaseValueConvertible {}

/// A synced table's record: its columns are uploaded but its id and the toolkit's own.
protocol UploadedRecord {
    associatedtype CodingKeys: CodingKey & CaseIterable & Hashable
    static var localColumns: Set<CodingKeys> { get }
}

extension UploadedRecord {
    /// In declaration order: what resync's compare-and-set holds an uploading row to.
    static var uploadedColumns: [String] {
        CodingKeys.allCases.filter { !localColumns.contains($0) && $0.stringValue != "id" }.map(\.stringValue)
    }
}

extension Family: UploadedRecord {}
extension UserProfile: UploadedRecord {}
extension Membership: UploadedRecord {}
