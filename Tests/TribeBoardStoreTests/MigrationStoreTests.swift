import Foundation
import GRDB
import Testing
import TribeBoardDomain
import TribeBoardTestSupport
@testable import TribeBoardStore

/// The store's API for `migrate`: a batch's records and its checkpoint in one
/// transaction, what the store already has left as it is, the checkpoint read back by run.
@Suite struct MigrationStoreTests {
    let folder: TemporaryDirectory
    var path: String { folder.file("store.sqlite") }
    let day = Timestamp(Date(timeIntervalSince1970: 1_700_000_000))

    init() throws { folder = try TemporaryDirectory("migration-store") }

    func batch(family: String = "F1", code: String = "ABC234") -> [TribeBoardStore.MigratedRecord] {
        [.family(id: FamilyID(rawValue: family), name: "Dupont", code: code, createdByUserID: "U", createdAt: day,
                 codeChange: .init(oldCode: "HELD23", newCode: code, keptBy: "C1", reason: "migrate-code-conflict")),
         .userProfile(id: UserID(rawValue: "P1"), displayName: "Ann", appleUserIdHash: nil, avatarURL: nil, createdAt: day),
         .membership(id: MembershipID(rawValue: "M1"), family: FamilyID(rawValue: family), user: UserID(rawValue: "P1"), role: "parent_admin",
                     status: "active", joinedAt: day, lastRoleChangeAt: nil),
         .membership(id: MembershipID(rawValue: "M2"), family: FamilyID(rawValue: "NOWHERE"), user: UserID(rawValue: "P1"), role: "adult",
                     status: "active", joinedAt: day, lastRoleChangeAt: nil)]
    }

    @Test func aBatchAndItsCheckpointAreLearnedTogetherOnce() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        let entry = TribeBoardStore.MigrationCheckpointEntry(sourceName: "L1", kind: "family", destinationName: "F1", newCode: "ABC234", status: .copied)
        let learned = try store.learnMigratedRecords(batch(), checkpoint: [entry], runKey: "run")
        #expect(learned == .init(families: 1, userProfiles: 1, memberships: 1), "a membership whose family the store lacks is left out")
        let inspector = try StoreInspector(path: path)
        #expect(try inspector.strings("SELECT id || '|' || code || '|' || needs_sync || '|' || ck_record_id FROM families") == ["F1|ABC234|0|F1"])
        #expect(try inspector.strings("SELECT old_code || '>' || new_code || ' ' || kept_by || ' ' || reason FROM code_repairs")
                == ["HELD23>ABC234 C1 migrate-code-conflict"])
        #expect(try store.migrationCheckpoint(runKey: "run")["L1"] == .init(sourceName: "L1", kind: "family", destinationName: "F1",
                                                                             newCode: "ABC234", status: .copied, keptBy: "C1"))
        #expect(try store.migrationCheckpoint(runKey: "another run").isEmpty)

        let again = try store.learnMigratedRecords(batch(code: "XYZ789"), checkpoint: [entry], runKey: "run")
        #expect(again == .init(), "rows the store has are left as they are")
        #expect(try inspector.strings("SELECT code FROM families") == ["ABC234"])
    }

    /// Sources `--keep-source` left in CloudKit are named until a later run deletes them; a
    /// container move's run is not about legacy records; a store from before the column has none.
    @Test func keptLegacySourcesAreNamedUntilDeleted() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        let kept = TribeBoardStore.MigrationCheckpointEntry(sourceName: "M9", kind: "membership", destinationName: "C9", newCode: nil,
                                                            status: .pending, kept: "--keep-source")
        let later = TribeBoardStore.MigrationCheckpointEntry(sourceName: "L2", kind: "family", destinationName: "C2", newCode: nil,
                                                             status: .copied, kept: "referenced by the kept membership M9")
        try store.recordMigrationCheckpoint([kept, later], runKey: "legacy-types a -> a")
        try store.recordMigrationCheckpoint([kept], runKey: "container a -> b")
        #expect(try store.legacySourcesKept() == ["M9", "L2"])
        #expect(try store.migrationCheckpoint(runKey: "legacy-types a -> a")["M9"]?.kept == "--keep-source")
        var deleted = later
        (deleted.status, deleted.kept) = (.deleted, nil)
        try store.recordMigrationCheckpoint([deleted], runKey: "legacy-types a -> a")
        #expect(try store.legacySourcesKept() == ["M9"])

        let older = folder.file("older.sqlite")
        let queue = try DatabaseQueue(path: older)
        try StoreSchema.migrator.migrate(queue, upTo: "v7-family-removals")
        try queue.close()
        let reading = try TribeBoardStore.openReadOnly(at: older)
        #expect(try reading.legacySourcesKept().isEmpty)
        #expect(try reading.migrationCheckpoint(runKey: "legacy-types a -> a").isEmpty)
    }

    /// A value edited by hand into the checkpoint is an error naming the row, not a trap.
    @Test func aHandEditedCheckpointIsAnErrorNamingTheRow() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        try store.recordMigrationCheckpoint([.init(sourceName: "L1", kind: "family", destinationName: "F1", newCode: nil, status: .pending)], runKey: "run")
        try store.writer.write { db in try db.execute(sql: "UPDATE migration_checkpoint SET destination_name = x'00'") }
        #expect(throws: StoreError.self) { try store.migrationCheckpoint(runKey: "run") }
    }

    /// Each record goes in as its typed record, every column set as CloudKit already holds it:
    /// uploaded at the run's time under its own record name, a family's code checked remotely.
    @Test func migratedRowsAreTheTypedRecordsAsUploaded() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        let now = Timestamp(milliseconds: 1_764_000_000_123)
        let changed = Timestamp(milliseconds: 1_700_000_500_000)
        let records: [TribeBoardStore.MigratedRecord] = [
            .family(id: "F1", name: "Dupont", code: "ABC234", createdByUserID: "P1", createdAt: day, codeChange: nil),
            .userProfile(id: "P1", displayName: "Ann", appleUserIdHash: "9f86d0", avatarURL: "https://example.com/a.png",
                         createdAt: day),
            .membership(id: "M1", family: "F1", user: "P1", role: "adult", status: "invited", joinedAt: day,
                        lastRoleChangeAt: changed),
        ]
        _ = try store.learnMigratedRecords(records, checkpoint: [], runKey: "run", at: now)
        let read = try store.writer.read { db in
            (try Family.fetchOne(db), try UserProfile.fetchOne(db), try Membership.fetchOne(db))
        }
        #expect(read.0 == Family(id: "F1", name: "Dupont", code: "ABC234", createdByUserID: "P1", createdAt: day, needsSync: false,
                                 lastSyncDate: now, ckRecordID: "F1", importKey: nil, sourceLine: nil, codeVerifiedRemotelyAt: now))
        #expect(read.1 == UserProfile(id: "P1", displayName: "Ann", appleUserIdHash: "9f86d0", avatarURL: "https://example.com/a.png",
                                      createdAt: day, needsSync: false, lastSyncDate: now, ckRecordID: "P1"))
        #expect(read.2 == Membership(id: "M1", familyID: "F1", userID: "P1", role: .adult, status: .invited, joinedAt: day,
                                     lastRoleChangeAt: changed, needsSync: false, lastSyncDate: now, ckRecordID: "M1"))
    }

    /// What the store's constraints refuse is left out, not an error: a role or status the app
    /// does not know, a second active admin of one family.
    @Test func membershipsTheStoreRefusesAreLeftOut() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        let member = { (id: MembershipID, user: UserID, role: String, status: String) in
            TribeBoardStore.MigratedRecord.membership(id: id, family: "F1", user: user, role: role, status: status,
                                                      joinedAt: day, lastRoleChangeAt: nil)
        }
        let learned = try store.learnMigratedRecords(batch() + [
            .userProfile(id: "P2", displayName: "Bo", appleUserIdHash: nil, avatarURL: nil, createdAt: day),
            member("M3", "P2", "owner", "active"), member("M4", "P2", "adult", "gone"),
            member("M5", "P2", "parent_admin", "active"),
        ], checkpoint: [], runKey: "run")
        #expect(learned == .init(families: 1, userProfiles: 2, memberships: 1))
        #expect(try StoreInspector(path: path).strings("SELECT id FROM memberships") == ["M1"])
    }

    @Test func codeHoldersAndFreeCodes() throws {
        let store = try TribeBoardStore.openOrCreate(at: path).store
        _ = try store.learnMigratedRecords(batch(), checkpoint: [], runKey: "run")
        let holders = try store.codeHolders { $0.uppercased() == "ABC234" }
        #expect(holders.map(\.id.rawValue) == ["F1"] && holders.first?.createdAt == day)
        let codes = try store.freeCodes(50, avoiding: ["HELD23"], generator: try FamilyCodeGenerator()).map(\.value)
        #expect(Set(codes).count == 50 && !codes.contains("ABC234") && !codes.contains("HELD23"))
    }
}
