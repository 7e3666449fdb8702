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

extension Family {
    /// A family as the toolkit makes it: pending (`needs_sync = 1`) until resync uploads it.
    package init(id: FamilyID, name: String, code: String, createdByUserID: UserID, createdAt: Timestamp,
                 importKey: String?, sourceLine: Int?, codeVerifiedRemotelyAt: Timestamp?) {
        self.init(id: id, name: name, code: code, createdByUserID: createdByUserID, createdAt: createdAt, needsSync: true,
                  lastSyncDate: nil, ckRecordID: nil, importKey: importKey, sourceLine: sourceLine,
                  codeVerifiedRemotelyAt: codeVerifiedRemotelyAt)
    }
}

extension UserProfile {
    /// A profile as the toolkit makes it (pending), or as CloudKit already holds it (`uploadedAt`:
    /// stored as uploaded then, its record name its id).
    package init(id: UserID, displayName: String, appleUserIdHash: String?, createdAt: Timestamp, uploadedAt: Timestamp? = nil) {
        self.init(id: id, displayName: displayName, appleUserIdHash: appleUserIdHash, avatarURL: nil, createdAt: createdAt,
                  needsSync: uploadedAt == nil, lastSyncDate: uploadedAt, ckRecordID: uploadedAt.map { _ in id.rawValue })
    }
}

extension Membership {
    /// A membership as the toolkit makes it (pending), or as CloudKit already holds it (`uploadedAt`).
    package init(id: MembershipID, familyID: FamilyID, userID: UserID, role: MembershipRole, status: MembershipStatus,
                 joinedAt: Timestamp, uploadedAt: Timestamp? = nil) {
        self.init(id: id, familyID: familyID, userID: userID, role: role, status: status, joinedAt: joinedAt,
                  lastRoleChangeAt: nil, needsSync: uploadedAt == nil, lastSyncDate: uploadedAt,
                  ckRecordID: uploadedAt.map { _ in id.rawValue })
    }
}

// Each column's value for an insert through the record (`BoundInsertable`): a new column does not
// compile until its case is here.
extension Family: BoundInsertable {
    func bound(_ column: CodingKeys) -> BindableValue {
        switch column {
        case .id: return .text(id)
        case .name: return .text(name)
        case .code: return .text(code)
        case .createdByUserID: return .text(createdByUserID)
        case .createdAt: return .text(createdAt)
        case .needsSync: return .flag(needsSync)
        case .lastSyncDate: return .text(lastSyncDate)
        case .ckRecordID: return .text(ckRecordID)
        case .importKey: return .text(importKey)
        case .sourceLine: return .integer(sourceLine)
        case .codeVerifiedRemotelyAt: return .text(codeVerifiedRemotelyAt)
        }
    }
}

extension UserProfile: BoundInsertable {
    func bound(_ column: CodingKeys) -> BindableValue {
        switch column {
        case .id: return .text(id)
        case .displayName: return .text(displayName)
        case .appleUserIdHash: return .text(appleUserIdHash)
        case .avatarURL: return .text(avatarURL)
        case .createdAt: return .text(createdAt)
        case .needsSync: return .flag(needsSync)
        case .lastSyncDate: return .text(lastSyncDate)
        case .ckRecordID: return .text(ckRecordID)
        }
    }
}

extension Membership: BoundInsertable {
    func bound(_ column: CodingKeys) -> BindableValue {
        switch column {
        case .id: return .text(id)
        case .familyID: return .text(familyID)
        case .userID: return .text(userID)
        case .role: return .text(role.rawValue)
        case .status: return .text(status.rawValue)
        case .joinedAt: return .text(joinedAt)
        case .lastRoleChangeAt: return .text(lastRoleChangeAt)
        case .needsSync: return .flag(needsSync)
        case .lastSyncDate: return .text(lastSyncDate)
        case .ckRecordID: return .text(ckRecordID)
        }
    }
}
