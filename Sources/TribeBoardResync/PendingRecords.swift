import Foundation
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardRemote

/// A record to upload, and the row it was made from.
package struct Upload: Sendable {
    let record: CloudKitRecord
    let read: PendingRow
    /// The create's own refusal (ACCESS_DENIED), kept for when no record holds the name after all.
    var refusal: CloudKitRecordError?
}

/// A due family decoded, for the remote check of its code.
struct DueFamily: Sendable {
    let family: Family
    let read: PendingRow
}

/// Store records as the app's CloudKit records, and the comparison that makes uploads idempotent.
enum PendingRecords {
    /// The same type and the same values in every field we write (references by record name).
    static func sameContent(_ ours: CloudKitRecord, _ theirs: CloudKitRecord) -> Bool {
        guard ours.recordType == theirs.recordType else { return false }
        for (key, field) in ours.fields ?? [:] {
            guard let other = theirs.fields?[key] else { return false }
            if field.type == "REFERENCE" {
                guard field.value.object?["recordName"] == other.value.object?["recordName"] else {
                    return false
                }
            } else if field.value != other.value {
                return false
            }
        }
        return true
    }
}

extension StoreRecord {
    /// The record as the app's CloudKit record, or why the app would refuse it (its decoder or its
    /// validators, `AppUploadCheck`): such a record is set aside, never uploaded.
    var appRecord: Result<CloudKitRecord, AppRecordRefusal> {
        let record: CloudKitRecord
        switch self {
        case .family(let family): record = family.cloudKitRecord
        case .membership(let membership): record = membership.cloudKitRecord
        case .userProfile(let profile):
            guard let hash = profile.appleUserIdHash else {
                return .failure(.missingAppleUserIdHash)
            }
            record = profile.cloudKitRecord(hash: hash)
        }
        return AppUploadCheck.refusal(record).map(Result.failure) ?? .success(record)
    }
}

extension Family {
    var cloudKitRecord: CloudKitRecord {
        RecordMapping.family(id: id, name: name, code: code, createdByUserId: createdByUserID, createdAt: createdAt)
    }
}

extension UserProfile {
    func cloudKitRecord(hash: String) -> CloudKitRecord {
        RecordMapping.userProfile(id: id, displayName: displayName, appleUserIdHash: hash, avatarUrl: avatarURL,
                                  createdAt: createdAt)
    }
}

extension Membership {
    var cloudKitRecord: CloudKitRecord {
        RecordMapping.membership(id: id, familyID: familyID, userID: userID, role: role, status: status,
                                 joinedAt: joinedAt, lastRoleChangeAt: lastRoleChangeAt)
    }
}
