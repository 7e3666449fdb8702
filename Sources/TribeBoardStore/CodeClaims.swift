import Foundation
import GRDB
import TribeBoardSupport

/// The store's record of the CloudKit code claims its families hold (table `code_claims`).
///
/// CloudKit is the arbiter (a claim record named after the code); this table only remembers
/// which claims this store made, so a claimed family is not asked about again, and a claim its
/// family no longer needs (the family was given a new code) is released once the family's new
/// code is up.
extension TribeBoardStore {
    package struct ClaimedCode: Hashable, Sendable {
        package let familyID: String
        package let code: String

        package init(familyID: String, code: String) {
            self.familyID = familyID
            self.code = code
        }
    }

    /// Of these families, the (family, code) pairs this store holds a claim for.
    package func claimedCodes(familyIDs: [String]) throws(StoreError) -> Set<ClaimedCode> {
        guard !familyIDs.isEmpty else { return [] }
        do {
            return try writer.read { db in
                var claimed = Set<ClaimedCode>()
                for chunk in familyIDs.chunked(500) {
                    let rows = try Row.fetchAll(db, sql: "SELECT family_id, code FROM code_claims WHERE family_id IN \(SQLPlaceholders.list(chunk.count))",
                                                arguments: StatementArguments(Array(chunk)))
                    for row in rows {
                        guard let family = row.text("family_id"), let code = row.text("code") else { continue }
                        claimed.insert(ClaimedCode(familyID: family, code: code))
                    }
                }
                return claimed
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// Remembers claims CloudKit confirmed. A code's row names the family that holds it now: a
    /// row left by a family that gave the code up is replaced (its claim was gone, or ours would
    /// have been refused).
    package func recordClaims(_ claims: [ClaimedCode], at now: Date = Date()) throws(StoreError) {
        guard !claims.isEmpty else { return }
        let stamp = StoreTimestamp.format(now)
        do {
            try writer.write { db in
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO code_claims (code, family_id, claimed_at) VALUES (?, ?, ?)
                    ON CONFLICT (code) DO UPDATE SET family_id = excluded.family_id, claimed_at = excluded.claimed_at
                    """)
                for claim in claims { try statement.execute(arguments: [claim.code, claim.familyID, stamp]) }
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Claims whose family holds another code now and whose new code is up (`needs_sync = 0`):
    /// releasing earlier would let another store take the code while CloudKit's family still
    /// shows it. A claim whose family is gone from the store is left alone (it may be an app
    /// user's family now; the audit reports claims, it does not guess).
    package func claimsToRelease(after: String, limit: Int) throws(StoreError) -> [ClaimedCode] {
        do {
            return try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT c.family_id, c.code FROM code_claims c JOIN families f ON f.id = c.family_id
                    WHERE f.code != c.code AND f.needs_sync = 0 AND c.code > ? ORDER BY c.code LIMIT ?
                    """, arguments: [after, limit]).compactMap { row in
                    guard let family = row.text("family_id"), let code = row.text("code") else { return nil }
                    return ClaimedCode(familyID: family, code: code)
                }
            }
        } catch {
            throw .reading(error, store: path)
        }
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

    /// How many of the store's families hold no claim of their current code.
    package func unclaimedFamilyCount() throws(StoreError) -> Int {
        do {
            return try writer.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM families f
                    WHERE NOT EXISTS (SELECT 1 FROM code_claims c WHERE c.code = f.code AND c.family_id = f.id)
                    """) ?? 0
            }
        } catch {
            throw .reading(error, store: path)
        }
    }
}
