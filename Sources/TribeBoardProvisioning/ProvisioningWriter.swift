import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardStore

/// Writes provisioning batches. One IMMEDIATE transaction per batch keeps concurrent runs
/// serialized on SQLite's write lock: the import-key and code checks and the inserts that depend on
/// them see the same data. A savepoint per family makes each family, its profile and membership
/// all-or-nothing even when a later family of the batch fails.
struct ProvisioningWriter {
    let generator: FamilyCodeGenerator
    let reservations: RowTracker?
    let qrFileExists: (RecordID) -> Bool
    let ids: RecordIDGenerator

    func write(_ batch: [BatchEntry], planned: [Int: CodePlanner.Planned] = [:], to store: TribeBoardStore,
               at date: Date) throws(StoreError) -> [ProvisionRowResult] {
        let timestamp = StoreTimestamp.format(date)
        do {
            return try store.writer.writeWithoutTransaction { db in
                var results: [ProvisionRowResult] = []
                try db.inTransaction(.immediate) {
                    results = []
                    let operatorID = try provisioningUserID(db)
                    let statements = try ProvisioningStatements(db)
                    for entry in batch {
                        results.append(try provision(entry, planned: planned, db: db, statements: statements,
                                                     timestamp: timestamp, operatorID: operatorID))
                    }
                    return .commit
                }
                return results
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .writing(error, store: store.path)
        }
    }

    private func provision(_ entry: BatchEntry, planned: [Int: CodePlanner.Planned], db: Database, statements: ProvisioningStatements,
                           timestamp: String, operatorID: String) throws -> ProvisionRowResult {
        switch entry {
        case .invalid(let line, let externalId, let name, let importKey, let error):
            try CreationLog.append(db, familyID: nil, importKey: importKey, line: line,
                                   states: [.idle, .validating], failure: error.localizedDescription, at: timestamp)
            return ProvisionRowResult(line: line, externalId: externalId, familyId: nil, familyName: name,
                                      code: nil, status: .failed, error: error.localizedDescription, needsQRCode: false)
        case .valid(let row) where row.skipped:
            return .skipped(row)
        case .valid(let row):
            if let existing = try statements.lookups.family(importKey: row.importKey) {
                if let conflict = PreassignedCode.conflict(row, existing: existing) {
                    return failed(row, conflict.localizedDescription)
                }
                var result = ProvisionRowResult(line: row.line, externalId: row.externalId, familyId: existing.id,
                                                familyName: existing.name, code: existing.code, status: .existing,
                                                error: nil, needsQRCode: true)
                result.checkExistingQRCode = qrFileExists(existing.id)
                return result
            }
            do {
                return try create(row, planned: planned[row.line], db: db, statements: statements,
                                  timestamp: timestamp, operatorID: operatorID)
            } catch let error as RowError {
                try logFailure(row, db: db, timestamp: timestamp, reached: [.idle, .validating, .generatingCode], error)
                return failed(row, error.localizedDescription)
            } catch let error as CodeGenerationError {
                try logFailure(row, db: db, timestamp: timestamp, reached: [.idle, .validating, .generatingCode], error)
                return failed(row, error.localizedDescription)
            } catch let error as RandomSourceError {
                let message = "could not make a record id: \(error.localizedDescription)"
                try logFailure(row, db: db, timestamp: timestamp, reached: [.idle, .validating, .generatingCode, .creatingLocally],
                               RowError(column: nil, message))
                return failed(row, message)
            }
        }
    }

    private func create(_ row: ValidatedRow, planned: CodePlanner.Planned?, db: Database, statements: ProvisioningStatements,
                        timestamp: String, operatorID: String) throws -> ProvisionRowResult {
        let chosen = try chooseCode(for: row, planned: planned, lookups: statements.lookups)
        let (code, verified) = (chosen.code, chosen.verifiedRemotely)
        let verifiedAt = verified ? timestamp : nil
        let familyID = try ids.make()
        try statements.allOrNothing {
            var creatorID = operatorID
            if let admin = row.admin {
                let profileID = try statements.findOrInsertProfile(admin, newID: try ids.make(), at: timestamp)
                creatorID = profileID
                try statements.insert(family: familyID, row: row, code: code, createdBy: creatorID, verifiedAt: verifiedAt, at: timestamp)
                try statements.insertAdminMembership(id: try ids.make(), familyID: familyID, userID: profileID,
                                                     status: admin.membershipStatus, at: timestamp)
            } else {
                try statements.insert(family: familyID, row: row, code: code, createdBy: creatorID, verifiedAt: verifiedAt, at: timestamp)
            }
            try statements.logCompletedCreation(familyID: familyID, row: row, at: timestamp)
        }
        var result = ProvisionRowResult(line: row.line, externalId: row.externalId, familyId: familyID,
                                        familyName: row.familyName, code: code.value, status: .created,
                                        error: nil, needsQRCode: true, codeVerifiedRemotely: verified)
        result.codePreassigned = row.preassignedCode != nil
        result.possibleDuplicate = row.possibleDuplicate
        return result
    }

    /// A preassigned code is kept or the row fails; it is never silently replaced.
    /// The planned code when it is still free; otherwise (a concurrent run took it) a new one,
    /// checked locally only.
    private func chooseCode(for row: ValidatedRow, planned: CodePlanner.Planned?, lookups: FamilyLookups) throws -> CodePlanner.Planned {
        if let code = row.preassignedCode {
            if let problem = try PreassignedCode.problem(row, lookups: lookups, reservations: reservations) { throw problem }
            return CodePlanner.Planned(code: code, verifiedRemotely: planned?.verifiedRemotely ?? false)
        }
        if let planned, try lookups.family(code: planned.code.value) == nil,
           try reservations?.reservedLine(for: planned.code.value) == nil {
            return planned
        }
        return CodePlanner.Planned(code: try generator.generateFree(lookups: lookups, reservations: reservations), verifiedRemotely: false)
    }

    private func logFailure(_ row: ValidatedRow, db: Database, timestamp: String,
                            reached: [FamilyCreationState], _ error: any Error) throws {
        try CreationLog.append(db, familyID: nil, importKey: row.importKey, line: row.line,
                               states: reached, failure: error.localizedDescription, at: timestamp)
    }

    private func failed(_ row: ValidatedRow, _ message: String) -> ProvisionRowResult {
        ProvisionRowResult(line: row.line, externalId: row.externalId, familyId: nil, familyName: row.familyName,
                           code: nil, status: .failed, error: message, needsQRCode: false)
    }

    /// Families created without an admin name the toolkit as their creator: one stable id per store.
    /// A stored value that is not an id (a hand edit) stops the run: families would name a creator
    /// the app cannot find.
    func provisioningUserID(_ db: Database) throws -> String {
        if let stored = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM toolkit_meta WHERE key = 'provisioning_user_id'") {
            guard case .string(let id) = stored.storage, UUID(uuidString: id) != nil else {
                throw StoreError.unreadableValue(table: "toolkit_meta", rowID: "provisioning_user_id", column: "value",
                                                 found: StoreError.describe(stored, column: "value") + " (not a record id)")
            }
            return id
        }
        let id = try ids.make()
        try db.execute(sql: "INSERT INTO toolkit_meta (key, value) VALUES ('provisioning_user_id', ?)", arguments: [id])
        return id
    }
}
