import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
@testable import TribeBoardCases

/// A member who joined in the app, read from CloudKit's membership and profile for `merge` and
/// `adopt`: by the Remote module's decoders, so the profile's creation date follows the one rule
/// (the app's `createdAt`, else CloudKit's creation time; a date out of range is none).
struct AppMemberTests {
    static let user = UUID().uuidString

    static let membership = RecordMapping.membership(id: MembershipID(rawValue: UUID().uuidString),
                                                     familyID: FamilyID(rawValue: UUID().uuidString),
                                                     userID: UserID(rawValue: user), role: .adult, status: .active,
                                                     joinedAt: .now, lastRoleChangeAt: nil)

    static func profile(createdAt: Double?) -> CloudKitRecord {
        var fields: [String: CloudKitRecord.Field] = [ProfileField.displayName.rawValue: .string("Ada")]
        fields[ProfileField.createdAt.rawValue] = createdAt.map { CloudKitRecord.Field(value: .number($0), type: "TIMESTAMP") }
        var record = CloudKitRecord(recordName: user, recordType: RecordMapping.userProfileType, fields: fields)
        record.created = CloudKitRecord.Stamp(timestamp: 1_700_000_000_000, userRecordName: "_app_user_1")
        return record
    }

    @Test func aProfileWithoutTheAppsDateTakesCloudKitsCreationTime() throws {
        let member = try #require(AppMember(membership: Self.membership, profiles: [Self.user: Self.profile(createdAt: nil)]))
        #expect(member.profile?.createdAt == Timestamp(milliseconds: 1_700_000_000_000))
        #expect(member.profile?.displayName == "Ada" && member.member.role == "adult")
    }

    @Test func anOutOfRangeDateIsNoDate() throws {
        let member = try #require(AppMember(membership: Self.membership, profiles: [Self.user: Self.profile(createdAt: 1e300)]))
        let created = try #require(member.profile?.createdAt)
        #expect(abs(created.date.timeIntervalSinceNow) < 600, "not the year 10^290: \(created)")
    }

    /// Adopt's move of an app-joined membership: its `joinedAt` by the same decoder.
    @Test func aMembershipsOutOfRangeJoinDateIsNoDate() throws {
        var membership = Self.membership
        membership[field: MembershipField.joinedAt] = CloudKitRecord.Field(value: .number(1e300), type: "TIMESTAMP")
        let move = try #require(FamilyAdopter.move(membership, familyID: FamilyID(rawValue: UUID().uuidString),
                                                   profiles: [Self.user: Self.profile(createdAt: 1_764_000_000_000)]))
        #expect(abs(move.joinedAt.date.timeIntervalSinceNow) < 600, "not the year 10^290: \(move.joinedAt)")
        #expect(move.profile?.createdAt == Timestamp(milliseconds: 1_764_000_000_000))
    }
}
