import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardSupport

/// The store's record of the CloudKit code claims its families hold (table `code_claims`).
///
/// CloudKit is the arbiter (a claim record named after the code); this table only remembers
/// which claims this store made, so a claimed family is not asked about again, and a claim its
/// family no longer needs (the family was given a new code) is released once the family's new
/// code is up.
extension TribeBoardStore {
    package struct ClaimedCode: Hashable, Sendable {
        package let familyID: FamilyID
        package let code: String

        package init(familyID: FamilyID, code: String) {
            self.familyID = familyID
            self.code = code
        }
    }

    /// Remembers claims CloudKit confirmed. A code's row names the family that holds it now: a
    /// row left by a family that gave the code up is replaced (its claim was gone, or ours would
    /// have been refused).
    package func recordClaims(_ claims: [ClaimedCode], at now: Timestamp = .now) throws(StoreError) {
        guard !claims.isEmpty else { return }
        do {
            try writer.write { db in
                for claim in claims { try Self.remember(claim, at: now, db) }
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// A code's row names the family that holds its claim now (the one upsert of `code_claims`:
    /// recordClaims and adopt).
    static func remember(_ claim: ClaimedCode, at time: Timestamp, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO code_claims (code, family_id, claimed_at) VALUES (?, ?, ?)
            ON CONFLICT (code) DO UPDATE SET family_id = excluded.family_id, claimed_at = excluded.claimed_at
            """).execute(arguments: [claim.code, claim.familyID, time])
    }

    /// Forgets claims that were released (or found to be someone else's).
    package func forgetClaims(_ claims: [ClaimedCode]) throws(StoreError) {
        guard !claims.isEmpty else { return }
        do {
            try writer.write { db in
                let statement = try db.cachedStatement(sql: "DELETE FROM code_claims WHERE code = ? AND family_id = ?")
                for claim in claims { try statement.execute(arguments: [claim.code, claim.familyID]) }
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

extension TribeBoardStore {
    /// Gives a family that never left the store (pending, no CloudKit record) a new code, when its
    /// code turned out to be claimed in CloudKit; false when the family changed or went up meanwhile.
    /// The unique index on `code` refuses a code another writer took meanwhile (thrown).
    package func recodeUnsentFamily(id: FamilyID, from old: String, to new: String) throws(StoreError) -> Bool {
        do {
            return try writer.write { db in
                try db.execute(sql: """
                    UPDATE families SET code = ?, code_verified_remotely_at = NULL
                    WHERE id = ? AND code = ? AND needs_sync = 1 AND ck_record_id IS NULL
                    """, arguments: [new, id, old])
                return db.changesCount == 1
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Removes a family created by this run that must not exist (its preassigned code is claimed
    /// by another family in CloudKit), with its memberships and the profiles only it used, if it
    /// never left the store. The creation log keeps the failure. Returns whether it was removed.
    package func discardUnsentFamily(id: FamilyID, importKey: String?, line: Int?, reason: String) throws(StoreError) -> Bool {
        do {
            return try writer.write { db in
                let users = try String.fetchAll(db, sql: "SELECT user_id FROM memberships WHERE family_id = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM families WHERE id = ? AND needs_sync = 1 AND ck_record_id IS NULL", arguments: [id])
                guard db.changesCount == 1 else { return false }
                try db.execute(sql: "DELETE FROM memberships WHERE family_id = ?", arguments: [id])
                for user in users {
                    try db.execute(sql: """
                        DELETE FROM user_profiles WHERE id = ? AND needs_sync = 1 AND ck_record_id IS NULL
                          AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = user_profiles.id)
                        """, arguments: [user])
                }
                try db.execute(sql: "DELETE FROM code_claims WHERE family_id = ?", arguments: [id])
                // A conflict another run set aside for it meanwhile would outlive the family.
                try db.execute(sql: "DELETE FROM sync_state WHERE record_table = 'families' AND record_id = ?", arguments: [id])
                try CreationLog.append(db, familyID: id, importKey: importKey, line: line, states: [], failure: reason,
                                       at: .now)
                return true
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Sets a family aside as a code conflict, for `resync --list` and `resync --release`, as
    /// resync does when CloudKit shows another family holding its code. False when the family is
    /// not in the store (another run discarded it meanwhile): no row is left for a family that
    /// does not exist, checked in the same transaction as the insert.
    @discardableResult
    package func setAsideCodeConflict(familyID: FamilyID, holder: String?, reason: String,
                                      at now: Timestamp = .now) throws(StoreError) -> Bool {
        do {
            return try writer.write { db in
                try db.execute(sql: """
                    INSERT INTO sync_state (record_table, record_id, status, attempts, last_error, last_attempt_at, next_attempt_at, conflict_with)
                    SELECT 'families', ?, 'conflict', 1, ?, ?, NULL, ? WHERE EXISTS (SELECT 1 FROM families WHERE id = ?)
                    ON CONFLICT (record_table, record_id) DO UPDATE SET status = 'conflict', last_error = excluded.last_error,
                        last_attempt_at = excluded.last_attempt_at, next_attempt_at = NULL, conflict_with = excluded.conflict_with
                    """, arguments: [familyID, OutsideText.bounded(reason), now, OutsideText.bounded(holder ?? "", limit: 300), familyID])
                return db.changesCount == 1
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

extension StoreReading {
    /// Of these families, the (family, code) pairs this store holds a claim for.
    package func claimedCodes(familyIDs: [FamilyID]) throws(StoreError) -> Set<TribeBoardStore.ClaimedCode> {
        guard !familyIDs.isEmpty else { return [] }
        do {
            return try reader.read { db in
                var claimed = Set<TribeBoardStore.ClaimedCode>()
                for chunk in familyIDs.chunked(500) {
                    let rows = try Row.fetchAll(db, sql: "SELECT family_id, code FROM code_claims "
                                                    + "WHERE family_id IN \(SQLPlaceholders.list(chunk.count))",
                                                arguments: StatementArguments(Array(chunk)))
                    for row in rows {
                        guard let family: FamilyID = row.id("family_id"), let code = row.text("code") else { continue }
                        claimed.insert(TribeBoardStore.ClaimedCode(familyID: family, code: code))
                    }
                }
                return claimed
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// Claims whose family holds another code now and whose new code is up (`needs_sync = 0`):
    /// releasing earlier would let another store take the code while CloudKit's family still
    /// shows it. A claim whose family is gone from the store is left alone (it may be an app
    /// user's family now; the audit reports claims, it does not guess).
    package func claimsToRelease(after: String, limit: Int) throws(StoreError) -> [TribeBoardStore.ClaimedCode] {
        do {
            return try reader.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT c.family_id, c.code FROM code_claims c JOIN families f ON f.id = c.family_id
                    WHERE f.code != c.code AND f.needs_sync = 0 AND c.code > ? ORDER BY c.code LIMIT ?
                    """, arguments: [after, limit]).compactMap { row in
                    guard let family: FamilyID = row.id("family_id"), let code = row.text("code") else { return nil }
                    return TribeBoardStore.ClaimedCode(familyID: family, code: code)
                }
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// The claims the store remembers, in code order after `after` (a page for the audit).
    package func rememberedClaims(after: String, limit: Int) throws(StoreError) -> [TribeBoardStore.ClaimedCode] {
        do {
            return try reader.read { db in
                try Row.fetchAll(db, sql: "SELECT family_id, code FROM code_claims WHERE code > ? ORDER BY code LIMIT ?",
                                 arguments: [after, limit]).compactMap { row in
                    guard let family: FamilyID = row.id("family_id"), let code = row.text("code") else { return nil }
                    return TribeBoardStore.ClaimedCode(familyID: family, code: code)
                }
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// Of these ids, those of families the store holds.
    package func presentFamilyIDs(_ ids: [FamilyID]) throws(StoreError) -> Set<FamilyID> {
        guard !ids.isEmpty else { return [] }
        do {
            return try reader.read { db in
                var present = Set<FamilyID>()
                for chunk in ids.chunked(500) {
                    present.formUnion(try FamilyID.fetchAll(db, sql: "SELECT id FROM families WHERE id IN \(SQLPlaceholders.list(chunk.count))",
                                                          arguments: StatementArguments(Array(chunk))))
                }
                return present
            }
        } catch {
            throw .reading(error, store: path)
        }
    }
}
