import Foundation
import GRDB

/// Dates as the store keeps them: ISO 8601 UTC with milliseconds, sortable as text.
public enum StoreTimestamp {
    public static func format(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash)
            .time(includingFractionalSeconds: true).timeSeparator(.colon).timeZone(separator: .omitted))
    }
}

/// The statements behind provisioning. Each is a cached prepared statement: a bulk run executes
/// them hundreds of thousands of times.
enum FamilyRows {
    struct Found { let id: String; let name: String; let code: String }

    static func byImportKey(_ db: Database, _ key: String) throws -> Found? {
        try find(db, sql: "SELECT id, name, code FROM families WHERE import_key = ?", key)
    }

    static func byCode(_ db: Database, _ code: String) throws -> Found? {
        try find(db, sql: "SELECT id, name, code FROM families WHERE code = ?", code)
    }

    private static func find(_ db: Database, sql: String, _ value: String) throws -> Found? {
        let statement = try db.cachedStatement(sql: sql)
        guard let row = try Row.fetchOne(statement, arguments: [value]) else { return nil }
        return Found(id: row[0], name: row[1], code: row[2])
    }

    static func insert(_ db: Database, id: String, row: ValidatedRow, code: FamilyCode, createdBy: String, at timestamp: String) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO families (id, name, code, created_by_user_id, created_at, needs_sync, import_key, source_line)
            VALUES (?, ?, ?, ?, ?, 1, ?, ?)
            """)
        try statement.execute(arguments: [id, row.familyName, code.value, createdBy, timestamp, row.importKey, row.line])
    }
}

enum UserProfileRows {
    /// A signed-in admin (with a hash) is one profile however many families they administer;
    /// an invited admin gets a profile of their own per family.
    static func findOrInsert(_ db: Database, _ admin: AdminSpec, newID id: String, at timestamp: String) throws -> String {
        if let hash = admin.appleUserIdHash {
            let lookup = try db.cachedStatement(sql: "SELECT id FROM user_profiles WHERE apple_user_id_hash = ?")
            if let id = try String.fetchOne(lookup, arguments: [hash]) { return id }
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO user_profiles (id, display_name, apple_user_id_hash, created_at, needs_sync)
            VALUES (?, ?, ?, ?, 1)
            """)
        try insert.execute(arguments: [id, admin.displayName, admin.appleUserIdHash, timestamp])
        return id
    }
}

enum MembershipRows {
    static func insertAdmin(_ db: Database, id: String, familyID: String, userID: String, status: MembershipStatus, at timestamp: String) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO memberships (id, family_id, user_id, role, status, joined_at, needs_sync)
            VALUES (?, ?, ?, 'parent_admin', ?, ?, 1)
            """)
        try statement.execute(arguments: [id, familyID, userID, status.rawValue, timestamp])
    }
}

enum CreationLog {
    /// Appends one row per state in `states`, then a `failed` row when `failure` is given.
    static func append(_ db: Database, familyID: String?, importKey: String?, line: Int?,
                       states: [FamilyCreationState], failure: String?, at timestamp: String) throws {
        var all = states.map { ($0, nil as String?) }
        if let failure { all.append((.failed, failure)) }
        // One multi-row INSERT per creation instead of one statement per transition.
        let placeholders = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: all.count).joined(separator: ", ")
        let statement = try db.cachedStatement(sql: """
            INSERT INTO creation_log (family_id, import_key, source_line, state, progress, error, at) VALUES \(placeholders)
            """)
        var arguments = StatementArguments()
        for (state, error) in all {
            arguments += [familyID, importKey, line, state.rawValue, state.progress, error, timestamp]
        }
        try statement.execute(arguments: arguments)
    }
}
