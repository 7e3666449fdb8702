import Foundation
import GRDB

/// Store rows as the app's CloudKit records, and the comparison that makes uploads idempotent.
enum PendingRecords {
    /// The columns `record(_:row:)` uploads. What resync writes after an upload (marked synced,
    /// code verified, set aside) holds only while the row still has the values it uploaded: an
    /// audit repair may give a family a new code while its old one is on the wire.
    static func uploadedColumns(_ table: SyncTable) -> [String] {
        switch table {
        case .families: return ["name", "code", "created_by_user_id", "created_at"]
        case .userProfiles: return ["display_name", "apple_user_id_hash", "avatar_url", "created_at"]
        case .memberships: return ["family_id", "user_id", "role", "status", "joined_at", "last_role_change_at"]
        }
    }

    /// The same type and the same values in every field we write (references by record name).
    static func sameContent(_ ours: CloudKitRecord, _ theirs: CloudKitRecord) -> Bool {
        guard ours.recordType == theirs.recordType else { return false }
        for (key, field) in ours.fields ?? [:] {
            guard let other = theirs.fields?[key] else { return false }
            if field.type == "REFERENCE" {
                guard field.value.object?["recordName"] == other.value.object?["recordName"] else { return false }
            } else if field.value != other.value {
                return false
            }
        }
        return true
    }

    static func record(_ table: SyncTable, row: Row) -> CloudKitRecord? {
        func date(_ column: String) -> Date? { (row[column] as String?).flatMap(RecordMapping.date(fromStoreTimestamp:)) }
        switch table {
        case .families:
            guard let created = date("created_at") else { return nil }
            return RecordMapping.family(id: row["id"], name: row["name"], code: row["code"],
                                        createdByUserId: row["created_by_user_id"], createdAt: created)
        case .userProfiles:
            guard let created = date("created_at") else { return nil }
            return RecordMapping.userProfile(id: row["id"], displayName: row["display_name"], appleUserIdHash: row["apple_user_id_hash"],
                                             avatarUrl: row["avatar_url"], createdAt: created)
        case .memberships:
            guard let joined = date("joined_at"),
                  let role = MembershipRole(rawValue: row["role"]), let status = MembershipStatus(rawValue: row["status"]) else { return nil }
            return RecordMapping.membership(id: row["id"], familyID: row["family_id"], userID: row["user_id"], role: role,
                                            status: status, joinedAt: joined, lastRoleChangeAt: date("last_role_change_at"))
        }
    }
}
