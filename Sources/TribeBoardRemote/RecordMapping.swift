import Foundation
import TribeBoardCloudKit
import TribeBoardDomain

/// The app's CloudKit mapping, exactly: record types `Family`, `UserProfile`, `Membership`, record
/// names the models' uppercase UUIDs, the documented field names and types. Sync bookkeeping
/// (`needs_sync`, `last_sync_date`, `ck_record_id`) is never uploaded.
package enum RecordMapping {
    package static let familyType = RecordType.family.name
    package static let userProfileType = RecordType.userProfile.name
    package static let membershipType = RecordType.membership.name
    /// Record types of builds before the rename: read by audits, never written.
    package static let legacyTypes = RecordType.legacy.map(\.name)

    package static func family(id: FamilyID, name: String, code: String, createdByUserId: UserID,
                              createdAt: Date) -> CloudKitRecord {
        CloudKitRecord(recordName: id.rawValue, recordType: familyType, fields: [
            "name": .string(name),
            "code": .string(code),
            "createdByUserId": .string(createdByUserId.rawValue),
            "createdAt": .timestamp(milliseconds: milliseconds(createdAt)),
        ])
    }

    /// The hash is required: the app's `UserProfile` decoder throws `invalidRecord` without it.
    package static func userProfile(id: UserID, displayName: String, appleUserIdHash: String, avatarUrl: String?,
                                   createdAt: Date) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [
            "displayName": .string(displayName),
            "appleUserIdHash": .string(appleUserIdHash),
            "createdAt": .timestamp(milliseconds: milliseconds(createdAt)),
        ]
        if let avatarUrl { fields["avatarUrl"] = .string(avatarUrl) }
        return CloudKitRecord(recordName: id.rawValue, recordType: userProfileType, fields: fields)
    }

    package static func membership(id: MembershipID, familyID: FamilyID, userID: UserID, role: MembershipRole,
                                  status: MembershipStatus, joinedAt: Date, lastRoleChangeAt: Date?) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [
            "role": .string(role.rawValue),
            "status": .string(status.rawValue),
            "joinedAt": .timestamp(milliseconds: milliseconds(joinedAt)),
            "family": .reference(familyID.rawValue),
            "user": .reference(userID.rawValue),
        ]
        if let lastRoleChangeAt { fields["lastRoleChangeAt"] = .timestamp(milliseconds: milliseconds(lastRoleChangeAt)) }
        return CloudKitRecord(recordName: id.rawValue, recordType: membershipType, fields: fields)
    }

    /// TIMESTAMP values are milliseconds since 1970.
    package static func milliseconds(_ date: Date) -> Int64 {
        Timestamp(date).milliseconds
    }

    /// The store's date text (`2026-11-21T22:27:49.123Z`, see `Timestamp`) as a date.
    package static func date(fromStoreTimestamp text: String) -> Date? {
        Timestamp(text: text)?.date
    }
}
