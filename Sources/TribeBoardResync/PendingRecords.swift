import Foundation
import GRDB
import TribeBoardCloudKit
import TribeBoardStore

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

    /// The row as its typed record, then as the app's CloudKit record; nil when a column does not
    /// hold what the store's format says (a hand-edited date, a blob, an unknown role).
    static func record(_ table: SyncTable, row: Row) -> CloudKitRecord? {
        try? decoded(table, row: row).get()
    }

    /// The same, or the error naming the column that does not hold what the format allows: the
    /// reason to give when the row is set aside.
    static func decoded(_ table: SyncTable, row: Row) -> Result<CloudKitRecord, StoreError> {
        Result { () throws(StoreError) in
            switch table {
            case .families: return try Family.decoded(row, table: table.rawValue).cloudKitRecord
            case .userProfiles: return try UserProfile.decoded(row, table: table.rawValue).cloudKitRecord
            case .memberships: return try Membership.decoded(row, table: table.rawValue).cloudKitRecord
            }
        }
    }
}

extension Family {
    var cloudKitRecord: CloudKitRecord {
        RecordMapping.family(id: id.rawValue, name: name, code: code, createdByUserId: createdByUserID.rawValue, createdAt: createdAt.date)
    }
}

extension UserProfile {
    var cloudKitRecord: CloudKitRecord {
        RecordMapping.userProfile(id: id.rawValue, displayName: displayName, appleUserIdHash: appleUserIdHash, avatarUrl: avatarURL,
                                  createdAt: createdAt.date)
    }
}

extension Membership {
    var cloudKitRecord: CloudKitRecord {
        RecordMapping.membership(id: id.rawValue, familyID: familyID.rawValue, userID: userID.rawValue, role: role, status: status,
                                 joinedAt: joinedAt.date, lastRoleChangeAt: lastRoleChangeAt?.date)
    }
}
