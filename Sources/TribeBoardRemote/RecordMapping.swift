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
                              createdAt: Timestamp) -> CloudKitRecord {
        CloudKitRecord(recordName: id.rawValue, recordType: familyType, fields: [
            FamilyField.name.rawValue: .string(name),
            FamilyField.code.rawValue: .string(code),
            FamilyField.createdByUserId.rawValue: .string(createdByUserId.rawValue),
            FamilyField.createdAt.rawValue: .timestamp(milliseconds: createdAt.milliseconds),
        ])
    }

    /// The hash is required: the app's `UserProfile` decoder throws `invalidRecord` without it.
    package static func userProfile(id: UserID, displayName: String, appleUserIdHash: String, avatarUrl: String?,
                                   createdAt: Timestamp) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [
            ProfileField.displayName.rawValue: .string(displayName),
            ProfileField.appleUserIdHash.rawValue: .string(appleUserIdHash),
            ProfileField.createdAt.rawValue: .timestamp(milliseconds: createdAt.milliseconds),
        ]
        if let avatarUrl { fields[ProfileField.avatarUrl.rawValue] = .string(avatarUrl) }
        return CloudKitRecord(recordName: id.rawValue, recordType: userProfileType, fields: fields)
    }

    package static func membership(id: MembershipID, familyID: FamilyID, userID: UserID, role: MembershipRole,
                                  status: MembershipStatus, joinedAt: Timestamp, lastRoleChangeAt: Timestamp?) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [
            MembershipField.role.rawValue: .string(role.rawValue),
            MembershipField.status.rawValue: .string(status.rawValue),
            MembershipField.joinedAt.rawValue: .timestamp(milliseconds: joinedAt.milliseconds),
            MembershipField.family.rawValue: .reference(familyID.rawValue),
            MembershipField.user.rawValue: .reference(userID.rawValue),
        ]
        if let lastRoleChangeAt {
            fields[MembershipField.lastRoleChangeAt.rawValue] = .timestamp(
                milliseconds: lastRoleChangeAt.milliseconds)
        }
        return CloudKitRecord(recordName: id.rawValue, recordType: membershipType, fields: fields)
    }
}
