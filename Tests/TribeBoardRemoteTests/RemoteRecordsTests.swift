import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardJoinKit
@testable import TribeBoardRemote

/// The Remote module's decoders read back what `RecordMapping` writes, and records from outside
/// with one rule for their creation date.
struct RemoteRecordsTests {
    static let created = Timestamp(milliseconds: 1_764_000_000_123)

    @Test func whatTheMappingWritesTheDecodersReadBack() throws {
        let id = FamilyID(rawValue: UUID().uuidString)
        let creator = UserID(rawValue: UUID().uuidString)
        let record = RecordMapping.family(id: id, name: "Nguyễn", code: "QX7K2M", createdByUserId: creator, createdAt: Self.created)
        let family = RemoteFamily(record)
        #expect(family.recordName == id.rawValue && family.name == "Nguyễn" && family.code == "QX7K2M")
        #expect(family.createdByUserId == creator.rawValue && family.created == .at(milliseconds: 1_764_000_000_123))
        // The app's rule, the join kit's decoder, reads the same record.
        #expect(RemoteFamily.app(record)?.code == "QX7K2M")

        let profileID = UserID(rawValue: UUID().uuidString)
        let profile = RemoteProfile(RecordMapping.userProfile(id: profileID, displayName: "Ana", appleUserIdHash: "h", avatarUrl: nil,
                                                              createdAt: Self.created))
        #expect(profile.displayName == "Ana" && profile.appleUserIdHash == "h" && profile.avatarUrl == nil)
        #expect(profile.created.timestamp == Timestamp(milliseconds: 1_764_000_000_123))

        let membership = RemoteMembership(RecordMapping.membership(
            id: MembershipID(rawValue: UUID().uuidString), familyID: id, userID: profileID, role: .parentAdmin, status: .active,
            joinedAt: Self.created, lastRoleChangeAt: nil))
        #expect(membership.family == id.rawValue && membership.user == profileID.rawValue)
        #expect(membership.role == "parent_admin" && membership.status == "active")
        #expect(membership.joinedAt != nil && membership.lastRoleChangeAt == nil)
    }

    static func record(createdAt: CloudKitRecord.Field?, stamp: Int64?) -> CloudKitRecord {
        var record = CloudKitRecord(recordName: "F1", recordType: "Family", fields: createdAt.map { ["createdAt": $0] } ?? [:])
        record.created = stamp.map { CloudKitRecord.Stamp(timestamp: $0, userRecordName: nil) }
        return record
    }

    /// `createdAt`, else the server's stamp; an unusable `createdAt` is no date (never the
    /// server's, another date); one bound, up to the last millisecond of 9999.
    @Test func oneRuleForCreationDates() {
        let last = Timestamp.supportedMilliseconds.upperBound
        #expect(RecordCreated(Self.record(createdAt: .timestamp(milliseconds: last), stamp: nil)) == .at(milliseconds: last))
        #expect(RecordCreated(Self.record(createdAt: .timestamp(milliseconds: last + 1), stamp: 5)).problem != nil)
        #expect(RecordCreated(Self.record(createdAt: .string("yesterday"), stamp: 5)).problem == "fields.createdAt.value is not a number")
        #expect(RecordCreated(Self.record(createdAt: nil, stamp: 1_700_000_000_000)) == .at(milliseconds: 1_700_000_000_000))
        #expect(RecordCreated(Self.record(createdAt: nil, stamp: -5)).problem != nil)
        #expect(RecordCreated(Self.record(createdAt: nil, stamp: nil)) == .unknown)
        // A copy not saved yet takes its source's stamp.
        #expect(RecordCreated(Self.record(createdAt: nil, stamp: nil), serverStamp: 7) == .at(milliseconds: 7))
        // 799,500 ms into the last second of 9999: one copy of the bound used to refuse it.
        #expect(RecordCreated.checked(253_402_300_799_500) == 253_402_300_799_500)
        #expect(RecordCreated.checked(.infinity) == nil && RecordCreated.checked(1e300) == nil)
    }

    /// A snapshot line (or any record from outside) whose `createdAt` is there without a value
    /// (no `value` key, or `null`): read like any unusable `createdAt` (no date, never the
    /// server's stamp, and said), as the snapshot parser reads it; the app refuses such a record.
    @Test(arguments: [#""createdAt":{"type":"TIMESTAMP"}"#,
                      #""createdAt":{"type":"TIMESTAMP","value":null}"#])
    func aCreatedAtWithoutAValueIsNoDate(createdAt: String) throws {
        func line(_ created: String) -> String {
            #"{"recordName":"0B0E5A4C-7D1B-4E5C-9A43-2F3D8C6E1A77","recordType":"Family","#
                + #""fields":{"name":{"type":"STRING","value":"Ana"},"#
                + #""code":{"type":"STRING","value":"QX7K2M"},"#
                + #""createdByUserId":{"type":"STRING","value":"6F9619FF-8B86-D011-B42D-00C04FC964FF"},"#
                + #"\#(created)},"#
                + #""created":{"timestamp":1700000000000}}"#
        }
        let record = try JSONDecoder().decode(CloudKitRecord.self, from: Data(line(createdAt).utf8))
        #expect(RecordCreated(record) == .invalid("fields.createdAt has no value"))
        #expect(RemoteFamily.app(record) == nil)
        let withDate = line(#""createdAt":{"type":"TIMESTAMP","value":5}"#)
        let dated = try JSONDecoder().decode(CloudKitRecord.self, from: Data(withDate.utf8))
        #expect(RemoteFamily.app(dated) != nil, "the same record with a date is one the app reads")
    }
}
