import Foundation
import TribeBoardCloudKit
import TribeBoardDomain

/// The app's CloudKit mapping, exactly (its decoders are in RemoteRecords.swift): record types
/// `Family`, `UserProfile`, `Membership`, record names the models' uppercase UUIDs, the documented
/// field names and types. Sync bookkeeping (`needs_sync`, `last_sync_date`, `ck_record_id`) is
/// never uploaded.
package enum RecordMapping {
    package static let familyType = RecordType.family.name
    package static let userProfileType = RecordType.userProfile.name
    package static let membershipType = RecordType.membership.name
    /// Record types of builds before the rename: read by audits, never written.
    package static let legacyTypes = RecordType.legacy.map(\.name)

    package static func family(id: FamilyID, name: String, code: String, createdByUserId: UserID,
                              createdAt: Date) -> CloudKitRecord {
        CloudKitRecord(recordName: id.rawValue, recordType: familyType, fields: [
            FamilyField.name.rawValue: .string(name),
            FamilyField.code.rawValue: .string(code),
            FamilyField.createdByUserId.rawValue: .string(createdByUserId.rawValue),
            FamilyField.createdAt.rawValue: .timestamp(milliseconds: milliseconds(createdAt)),
        ])
    }

    /// The hash is required: the app's `UserProfile` decoder throws `invalidRecord` without it.
    package static func userProfile(id: UserID, displayName: String, appleUserIdHash: String, avatarUrl: String?,
                                   createdAt: Date) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [
            ProfileField.displayName.rawValue: .string(displayName),
            ProfileField.appleUserIdHash.rawValue: .string(appleUserIdHash),
            ProfileField.createdAt.rawValue: .timestamp(milliseconds: milliseconds(createdAt)),
        ]
        if let avatarUrl { fields[ProfileField.avatarUrl.rawValue] = .string(avatarUrl) }
        return CloudKitRecord(recordName: id.rawValue, recordType: userProfileType, fields: fields)
    }

    package static func membership(id: MembershipID, familyID: FamilyID, userID: UserID, role: MembershipRole,
                                  status: MembershipStatus, joinedAt: Date, lastRoleChangeAt: Date?) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [
            MembershipField.role.rawValue: .string(role.rawValue),
            MembershipField.status.rawValue: .string(status.rawValue),
            MembershipField.joinedAt.rawValue: .timestamp(milliseconds: milliseconds(joinedAt)),
            MembershipField.family.rawValue: .reference(familyID.rawValue),
            MembershipField.user.rawValue: .reference(userID.rawValue),
        ]
        if let lastRoleChangeAt {
            fields[MembershipField.lastRoleChangeAt.rawValue] = .timestamp(
                milliseconds: milliseconds(lastRoleChangeAt))
        }
        return CloudKitRecord(recordName: id.rawValue, recordType: membershipType, fields: fields)
    }

    /// TIMESTAMP values are milliseconds since 1970.
    package static func milliseconds(_ date: Date) -> Int64 {
        Timestamp(date).milliseconds
    }
}
