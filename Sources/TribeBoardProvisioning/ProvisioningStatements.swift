import Foundation
import GRDB
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

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
        profileByHash = try BoundStatement(db, "SELECT id FROM user_profiles WHERE apple_user_id_hash = ?", table: "user_profiles")
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
