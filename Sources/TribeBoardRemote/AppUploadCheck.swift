import Foundation
import TribeBoardCloudKit
import TribeBoardJoinKit

/// Why the app would refuse a record the toolkit was about to upload.
package enum AppRecordRefusal: Error, Sendable, Equatable, LocalizedError {
    /// A profile of a person invited without their Apple user id: it stays local until they
    /// activate through the join kit.
    case missingAppleUserIdHash
    /// The app's `updateFromCKRecord` would throw `invalidRecord` (a field missing or mistyped).
    case undecodable(recordType: String)
    /// One of the app's validators (`Validation.swift`) refuses a value: its own message.
    case validator(String)

    package var errorDescription: String? {
        switch self {
        case .missingAppleUserIdHash:
            return "the app cannot read a UserProfile without appleUserIdHash; it stays local until its person joins"
        case .undecodable(let type):
            return "the app's \(type) decoder would refuse this record (a required field is missing or mistyped)"
        case .validator(let message):
            return "the app's rule: \(message)"
        }
    }
}

/// The last check before an upload: the record decodes with the app's decoders (the join kit's
/// copies of them) and its names pass the app's validators.
package enum AppUploadCheck {
    package static func refusal(_ record: CloudKitRecord) -> AppRecordRefusal? {
        let join = RecordDecoding.joinRecord(record)
        switch RecordType(rawValue: join.type) {
        case .family?:
            guard let family = FamilyRecord(join) else {
                return .undecodable(recordType: join.type)
            }
            return AppRules.familyNameProblem(family.name).map(AppRecordRefusal.validator)
                ?? (FamilyCodeText.isWireForm(family.code)
                    ? nil : .validator("Family code must be 6-8 characters"))
        case .userProfile?:
            guard let profile = ProfileRecord(join) else {
                return .undecodable(recordType: join.type)
            }
            return AppRules.displayNameProblem(profile.displayName).map(AppRecordRefusal.validator)
        case .membership?:
            return MembershipRecord(join) == nil ? .undecodable(recordType: join.type) : nil
        default:
            return nil
        }
    }
}
