import Foundation
import GRDB

/// Dates as the store keeps them: ISO 8601 UTC with milliseconds, sortable as text.
public enum StoreTimestamp {
    public static func format(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash)
            .time(includingFractionalSeconds: true).timeSeparator(.colon).timeZone(separator: .omitted))
    }
}

struct FoundFamily {
    let id: String
    let name: String
    let code: String
}

/// Families by import key and by code: what a run (or a dry run) asks before it creates anything.
struct FamilyLookups {
    private let byImportKey: BoundStatement
    private let byCode: BoundStatement

    init(_ db: Database) throws {
        byImportKey = try BoundStatement(db, "SELECT id, name, code FROM families WHERE import_key = ?")
        byCode = try BoundStatement(db, "SELECT id, name, code FROM families WHERE code = ?")
    }

    func family(importKey: String) throws -> FoundFamily? {
        try found(byImportKey.firstRow([.text(importKey)], columns: 3))
    }

    func family(code: String) throws -> FoundFamily? {
        try found(byCode.firstRow([.text(code)], columns: 3))
    }

    private func found(_ row: [String]?) -> FoundFamily? {
        row.map { FoundFamily(id: $0[0], name: $0[1], code: $0[2]) }
    }
}

/// The statements a provisioning batch runs for every family, prepared once per batch.
struct ProvisioningStatements {
    let lookups: FamilyLookups
    private let profileByHash: BoundStatement
    private let insertFamily: BoundStatement
    private let insertProfile: BoundStatement
    private let insertMembership: BoundStatement
    private let insertCompletedLog: BoundStatement
    private let savepoint: BoundStatement
    private let release: BoundStatement
    private let rollback: BoundStatement

    /// What a successful creation goes through, one creation_log row each.
    static let completedStates: [FamilyCreationState] = [.idle, .validating, .generatingCode, .creatingLocally, .completed]

    init(_ db: Database) throws {
        lookups = try FamilyLookups(db)
        // GRDB's inSavepoint parses these anew each time; a bulk run needs one per family.
        savepoint = try BoundStatement(db, "SAVEPOINT family")
        release = try BoundStatement(db, "RELEASE SAVEPOINT family")
        rollback = try BoundStatement(db, "ROLLBACK TRANSACTION TO SAVEPOINT family")
        profileByHash = try BoundStatement(db, "SELECT id FROM user_profiles WHERE apple_user_id_hash = ?")
        insertFamily = try BoundStatement(db, """
            INSERT INTO families (id, name, code, created_by_user_id, created_at, needs_sync, import_key, source_line,
                                  code_verified_remotely_at)
            VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
            """)
        insertProfile = try BoundStatement(db, """
            INSERT INTO user_profiles (id, display_name, apple_user_id_hash, created_at, needs_sync)
            VALUES (?, ?, ?, ?, 1)
            """)
        insertMembership = try BoundStatement(db, """
            INSERT INTO memberships (id, family_id, user_id, role, status, joined_at, needs_sync)
            VALUES (?, ?, ?, 'parent_admin', ?, ?, 1)
            """)
        // One multi-row INSERT per creation instead of one statement per transition.
        let rows = Array(repeating: "(?, ?, ?, ?, ?, NULL, ?)", count: Self.completedStates.count).joined(separator: ", ")
        insertCompletedLog = try BoundStatement(db, """
            INSERT INTO creation_log (family_id, import_key, source_line, state, progress, error, at) VALUES \(rows)
            """)
    }

    /// Runs `body` all-or-nothing inside the batch's transaction: a failure undoes only this family.
    func allOrNothing(_ body: () throws -> Void) throws {
        try savepoint.execute([])
        do {
            try body()
        } catch {
            try rollback.execute([])
            try release.execute([])
            throw error
        }
        try release.execute([])
    }

    func insert(family id: String, row: ValidatedRow, code: FamilyCode, createdBy: String, verifiedAt: String?,
                at timestamp: String) throws {
        try insertFamily.execute([.text(id), .text(row.familyName), .text(code.value), .text(createdBy),
                                  .text(timestamp), .text(row.importKey), .integer(row.line), .text(verifiedAt)])
    }

    /// A signed-in admin (with a hash) is one profile however many families they administer;
    /// an invited admin gets a profile of their own per family.
    func findOrInsertProfile(_ admin: AdminSpec, newID id: String, at timestamp: String) throws -> String {
        if let hash = admin.appleUserIdHash, let existing = try profileByHash.firstRow([.text(hash)], columns: 1) {
            return existing[0]
        }
        try insertProfile.execute([.text(id), .text(admin.displayName), .text(admin.appleUserIdHash), .text(timestamp)])
        return id
    }

    func insertAdminMembership(id: String, familyID: String, userID: String, status: MembershipStatus, at timestamp: String) throws {
        try insertMembership.execute([.text(id), .text(familyID), .text(userID), .text(status.rawValue), .text(timestamp)])
    }

    func logCompletedCreation(familyID: String, row: ValidatedRow, at timestamp: String) throws {
        var values: [BindableValue] = []
        values.reserveCapacity(Self.completedStates.count * 6)
        for state in Self.completedStates {
            values += [.text(familyID), .text(row.importKey), .integer(row.line), .text(state.rawValue),
                       .real(state.progress), .text(timestamp)]
        }
        try insertCompletedLog.execute(values)
    }
}

/// creation_log writes off the bulk path (failed rows, uploads); successful creations go
/// through `ProvisioningStatements`' cached statement.
enum CreationLog {
    struct Entry {
        var familyID: String?
        var importKey: String? = nil
        var line: Int? = nil
        var state: FamilyCreationState
        var error: String? = nil
    }

    /// Appends one row per state in `states`, then a `failed` row when `failure` is given.
    static func append(_ db: Database, familyID: String?, importKey: String?, line: Int?,
                       states: [FamilyCreationState], failure: String?, at timestamp: String) throws {
        var entries = states.map { Entry(familyID: familyID, importKey: importKey, line: line, state: $0) }
        if let failure { entries.append(Entry(familyID: familyID, importKey: importKey, line: line, state: .failed, error: failure)) }
        try append(db, entries, at: timestamp)
    }

    /// All entries in multi-row INSERTs (a page of uploads is 400 rows).
    static func append(_ db: Database, _ entries: [Entry], at timestamp: String) throws {
        for chunk in entries.chunked(500) {
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            var arguments = StatementArguments()
            for entry in chunk {
                arguments += [entry.familyID, entry.importKey, entry.line, entry.state.rawValue, entry.state.progress, entry.error, timestamp]
            }
            try db.execute(sql: "INSERT INTO creation_log (family_id, import_key, source_line, state, progress, error, at) VALUES \(rows)",
                           arguments: arguments)
        }
    }
}
