import Foundation
import GRDB
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore

/// Teaches the local store the migrated records, as already in CloudKit (`needs_sync = 0`, the
/// record name in `ck_record_id`, the code checked remotely now), so doctor, audit and resync know
/// them. A record the store already has (same id, code or signed-in user) is left as it is.
package enum MigrationStoreImport {
    package struct Learned: Sendable, Encodable, Equatable {
        package var families = 0
        package var userProfiles = 0
        package var memberships = 0
    }

    static func learn(_ items: [MigrationItem], in db: Database) throws -> Learned {
        var learned = Learned()
        let now = StoreTimestamp.format(Date())
        // A legacy record copied as it is (container copy) stays invisible to the app: the store
        // learns it once `legacy-types` has made it current.
        for item in items where item.outcome.isInPlace && item.copy.recordType == item.kind.currentType {
            let copy = item.copy
            let created = StoreTimestamp.format(createdAt(item))
            switch item.kind {
            case .family:
                guard let name = copy.string("name"), let code = copy.string("code") else { continue }
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO families (id, name, code, created_by_user_id, created_at, needs_sync, last_sync_date,
                                                    ck_record_id, code_verified_remotely_at)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)
                    """).execute(arguments: [copy.recordName, name, code, copy.string("createdByUserId") ?? "", created, now, copy.recordName, now])
                learned.families += db.changesCount
                if let recode = item.recode, try !hasRepair(recode, family: copy.recordName, db) {
                    try db.execute(sql: "INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                                   arguments: [copy.recordName, recode.oldCode, recode.newCode, recode.keptBy, recode.reason, now])
                }
            case .userProfile:
                guard let displayName = copy.string("displayName") else { continue }
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO user_profiles (id, display_name, apple_user_id_hash, avatar_url, created_at, needs_sync,
                                                         last_sync_date, ck_record_id)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                    """).execute(arguments: [copy.recordName, displayName, copy.string("appleUserIdHash"), copy.string("avatarUrl"), created,
                                     now, copy.recordName])
                learned.userProfiles += db.changesCount
            case .membership:
                guard let family = reference(copy, "family"), let user = reference(copy, "user") else { continue }
                let joined = copy.fields?["joinedAt"]?.value.number.flatMap(date(milliseconds:)).map(StoreTimestamp.format) ?? created
                let roleChanged = copy.fields?["lastRoleChangeAt"]?.value.number.flatMap(date(milliseconds:)).map(StoreTimestamp.format)
                // CHECK constraints (an unknown role) and the one-active-admin index ignore the row;
                // a family or profile the store does not have is not referenced.
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO memberships (id, family_id, user_id, role, status, joined_at, last_role_change_at, needs_sync,
                                                       last_sync_date, ck_record_id)
                    SELECT ?, ?, ?, ?, ?, ?, ?, 0, ?, ?
                    WHERE EXISTS (SELECT 1 FROM families WHERE id = ?) AND EXISTS (SELECT 1 FROM user_profiles WHERE id = ?)
                    """).execute(arguments: [copy.recordName, family, user, copy.string("role") ?? MembershipRole.kid.rawValue,
                                     copy.string("status") ?? "", joined, roleChanged, now, copy.recordName, family, user])
                learned.memberships += db.changesCount
            }
        }
        return learned
    }

    private static func hasRepair(_ recode: MigrationRecode, family: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM code_repairs WHERE family_id = ? AND old_code = ? AND new_code = ?)",
                          arguments: [family, recode.oldCode, recode.newCode]) ?? false
    }

    static func reference(_ record: CloudKitRecord, _ field: String) -> String? {
        record.fields?[field]?.value.object?["recordName"]?.string
    }

    /// `createdAt`, else the server's creation stamp, else now: a date outside 1970 to 9999 is no date.
    static func createdAt(_ item: MigrationItem) -> Date {
        if let date = item.copy.fields?["createdAt"]?.value.number.flatMap(date(milliseconds:)) { return date }
        if let stamp = item.source.created?.timestamp, let date = date(milliseconds: Double(stamp)) { return date }
        return Date()
    }

    static func date(milliseconds: Double) -> Date? {
        guard milliseconds.isFinite, (0...253_402_300_799_000).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
