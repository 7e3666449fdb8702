import Foundation
import GRDB
import TribeBoardDomain

/// Where provisioning writes: one batch of families in one IMMEDIATE transaction, which keeps
/// concurrent runs serialized on SQLite's write lock, so that the import-key and code checks and
/// the inserts that depend on them see the same data; a savepoint per family makes each family,
/// its profile and membership all-or-nothing even when a later family of the batch fails. Rows
/// go in as their typed records (`BoundInsertable`: every column, from the record). The
/// statements are prepared once per batch and run through `BoundStatement`: a bulk run executes
/// them about ten times per family, on the pipeline's critical path.
package struct ProvisioningBatch {
    /// Families by import key and by code, inside the batch's transaction.
    package let lookups: FamilyLookups
    /// Who families without an admin name as their creator: the toolkit, one id per store.
    package let operatorID: UserID
    private let db: Database
    private let profileByHash: BoundStatement
    private let insertFamily: BoundStatement
    private let insertProfile: BoundStatement
    private let insertMembership: BoundStatement
    private let insertCompletedLog: BoundStatement
    private let savepoint: BoundStatement
    private let release: BoundStatement
    private let rollback: BoundStatement

    /// What a successful creation goes through, one creation_log row each.
    package static let completedStates: [FamilyCreationState] = [.idle, .validating, .generatingCode, .creatingLocally, .completed]

    fileprivate init(_ db: Database, newID: () throws -> UserID) throws {
        self.db = db
        lookups = try FamilyLookups(db)
        operatorID = try Self.provisioningUserID(db, newID: newID)
        // GRDB's inSavepoint parses these anew each time; a bulk run needs one per family.
        savepoint = try BoundStatement(db, "SAVEPOINT family")
        release = try BoundStatement(db, "RELEASE SAVEPOINT family")
        rollback = try BoundStatement(db, "ROLLBACK TRANSACTION TO SAVEPOINT family")
        profileByHash = try BoundStatement(db, "SELECT id FROM user_profiles WHERE apple_user_id_hash = ?", table: "user_profiles")
        insertFamily = try BoundStatement(db, Family.insertSQL())
        insertProfile = try BoundStatement(db, UserProfile.insertSQL())
        insertMembership = try BoundStatement(db, Membership.insertSQL())
        // One multi-row INSERT per creation instead of one statement per transition.
        let rows = Array(repeating: "(?, ?, ?, ?, ?, NULL, ?)", count: Self.completedStates.count).joined(separator: ", ")
        insertCompletedLog = try BoundStatement(db, """
            INSERT INTO creation_log (family_id, import_key, source_line, state, progress, error, at) VALUES \(rows)
            """)
    }

    /// Runs `body` all-or-nothing inside the batch's transaction: a failure undoes only this family.
    package func allOrNothing(_ body: () throws -> Void) throws {
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

    package func insert(_ family: Family) throws {
        try insertFamily.execute(family.boundValues)
    }

    /// A signed-in admin (with a hash) is one profile however many families they administer:
    /// the stored one's id when there is one, else `profile` stored now. An invited admin gets a
    /// profile of their own per family.
    package func findOrInsert(_ profile: UserProfile) throws -> UserID {
        if let hash = profile.appleUserIdHash, let existing = try profileByHash.firstRow([.text(hash)], columns: 1) {
            return UserID(rawValue: existing[0])
        }
        try insertProfile.execute(profile.boundValues)
        return profile.id
    }

    package func insert(_ membership: Membership) throws {
        try insertMembership.execute(membership.boundValues)
    }

    package func logCompletedCreation(familyID: FamilyID, importKey: String, line: Int, at time: Timestamp) throws {
        var values: [BindableValue] = []
        values.reserveCapacity(Self.completedStates.count * 6)
        let at = BindableValue.text(time)
        for state in Self.completedStates {
            values += [.text(familyID.rawValue), .text(importKey), .integer(line), .text(state.rawValue), .real(state.progress), at]
        }
        try insertCompletedLog.execute(values)
    }

    /// A row that did not become a family: the states it reached, then `failed` with why.
    package func logFailure(importKey: String?, line: Int, reached states: [FamilyCreationState], failure: String,
                            at timestamp: Timestamp) throws {
        try CreationLog.append(db, familyID: nil, importKey: importKey, line: line, states: states, failure: failure, at: timestamp)
    }

    /// The stored id, or a new one stored now. A stored value that is not an id (a hand edit)
    /// stops the run: families would name a creator the app cannot find.
    private static func provisioningUserID(_ db: Database, newID: () throws -> UserID) throws -> UserID {
        if let stored = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM toolkit_meta WHERE key = 'provisioning_user_id'") {
            guard case .string(let id) = stored.storage, UUID(uuidString: id) != nil else {
                throw StoreError.unreadableValue(table: "toolkit_meta", rowID: "provisioning_user_id", column: "value",
                                                 found: StoreError.describe(stored, column: "value") + " (not a record id)")
            }
            return UserID(rawValue: id)
        }
        let id = try newID()
        try db.execute(sql: "INSERT INTO toolkit_meta (key, value) VALUES ('provisioning_user_id', ?)", arguments: [id])
        return id
    }
}

extension TribeBoardStore {
    /// One provisioning batch: `body` runs inside one IMMEDIATE transaction, committed when it
    /// returns. `newID` makes the toolkit's creator id the first time a store needs one.
    package func provisioningBatch<T>(newID: () throws -> UserID, _ body: (ProvisioningBatch) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(try ProvisioningBatch(db, newID: newID))
                    return .commit
                }
                guard let result else { throw StoreError.writeFailed(reason: "the provisioning transaction returned nothing") }
                return result
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .writing(error, store: path)
        }
    }
}

extension StoreReading {
    /// Families by import key and by code, in one read: what planning and a dry run ask.
    package func withFamilyLookups<T>(_ body: (FamilyLookups) throws -> T) throws -> T {
        try reader.read { db in try body(try FamilyLookups(db)) }
    }
}
