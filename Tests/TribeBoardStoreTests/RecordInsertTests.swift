import Foundation
import GRDB
import Testing
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardStore

/// Provision's bulk path inserts the typed records through bound statements (`BoundInsertable`),
/// not through GRDB's encoder: each column's bound value must be what GRDB's own encoding of the
/// record stores, and a record must read back equal after the bound insert, every optional
/// column filled.
struct RecordInsertTests {
    static let time = Timestamp(milliseconds: 1_764_000_000_123)
    static let later = Timestamp(milliseconds: 1_764_000_100_456)

    static let family = Family(id: "F0000000-0000-4000-8000-000000000001", name: "Okafor", code: "QX7K2M9A",
                               createdByUserID: "U0000000-0000-4000-8000-000000000001", createdAt: time, needsSync: false,
                               lastSyncDate: later, ckRecordID: "F0000000-0000-4000-8000-000000000001", importKey: "ext:E1",
                               sourceLine: 7, codeVerifiedRemotelyAt: later)
    static let profile = UserProfile(id: "U0000000-0000-4000-8000-000000000001", displayName: "Ada", appleUserIdHash: "9f86d0",
                                     avatarURL: "https://example.com/a.png", createdAt: time, needsSync: true, lastSyncDate: later,
                                     ckRecordID: "U0000000-0000-4000-8000-000000000001")
    static let membership = Membership(id: "M0000000-0000-4000-8000-000000000001", familyID: family.id, userID: profile.id,
                                       role: .parentAdmin, status: .invited, joinedAt: time, lastRoleChangeAt: later,
                                       needsSync: false, lastSyncDate: later, ckRecordID: "M0000000-0000-4000-8000-000000000001")

    /// GRDB's encoding of `record`, column by column in `CodingKeys` order.
    static func encoded<Record: BoundInsertable & EncodableRecord>(_ record: Record) throws -> [DatabaseValue] {
        let encoded = try record.databaseDictionary
        return Record.CodingKeys.allCases.map { encoded[$0.stringValue] ?? .null }
    }

    /// The columns of `record` its fixture leaves NULL.
    static func unfilled<Record: BoundInsertable & EncodableRecord>(_ record: Record) throws -> [String] {
        let encoded = try record.databaseDictionary
        return Record.CodingKeys.allCases.map(\.stringValue).filter { (encoded[$0] ?? .null).isNull }
    }

    /// A column added to a record (optional, defaulted in its `init`) compiles without a value
    /// here; both checks below would then compare NULL with NULL. Every column of each fixture
    /// holds a value, so a new one fails here until the fixture gives it one.
    @Test func theFixturesFillEveryColumn() throws {
        #expect(try Self.unfilled(Self.family) == [], "families")
        #expect(try Self.unfilled(Self.profile) == [], "user_profiles")
        #expect(try Self.unfilled(Self.membership) == [], "memberships")
    }

    @Test func boundValuesAreGRDBsEncodingOfEachRecord() throws {
        #expect(try Self.encoded(Self.family) == Self.family.boundValues.map(\.databaseValue))
        #expect(try Self.encoded(Self.profile) == Self.profile.boundValues.map(\.databaseValue))
        #expect(try Self.encoded(Self.membership) == Self.membership.boundValues.map(\.databaseValue))
    }

    @Test func recordsReadBackEqualAfterTheBoundInsert() throws {
        let folder = try TemporaryDirectory("record-insert")
        let store = try TribeBoardStore.openOrCreate(at: folder.file("s.sqlite")).store
        let read = try store.writer.write { db in
            try Self.profile.insertRow(db)
            try Self.family.insertRow(db)
            try Self.membership.insertRow(db)
            return (try Family.fetchOne(db), try UserProfile.fetchOne(db), try Membership.fetchOne(db))
        }
        #expect(read.0 == Self.family)
        #expect(read.1 == Self.profile)
        #expect(read.2 == Self.membership)
    }
}
