import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardSupport

/// The one rule for a code several families hold, in the words the audit, `doctor family` and
/// `recode` all print (the code claims' backfill follows it too: docs/code-claims.md).
package enum SharedCodeRule {
    package static let statement = "the oldest holder (by creation date, then id) keeps a shared code; every newer family gets a new code"

    package static func keeps(_ keeper: String) -> String { "\(keeper) (oldest) keeps the code" }

    /// The commands that give one family of this store a new code: the plan, then the change.
    package static func recode(_ familyID: FamilyID, store: String, remote: [String]) -> String {
        "`\(Advice.recodePlan(familyID: familyID, store: store, remote: remote).command)` shows the change, "
            + "`\(Advice.recode(familyID: familyID, store: store, remote: remote).command)` makes it "
            + "(new QR code, its printed card stops working once uploaded)"
    }
}

/// One family's code change, as the audit's repair and `recode` make it.
package struct CodeChange: Sendable, Equatable {
    package let familyID: FamilyID
    /// The code the caller read: the change is made only if the family still holds it.
    package let expectedCode: String
    package let newCode: String
    /// The family that keeps the old code (nil when none does: a chosen recode).
    package let keptBy: FamilyID?
    /// `duplicate-local`, `case-only-twins`… or `recode`.
    package let reason: String

    package init(familyID: FamilyID, expectedCode: String, newCode: String, keptBy: FamilyID?, reason: String) {
        self.familyID = familyID
        self.expectedCode = expectedCode
        self.newCode = newCode
        self.keptBy = keptBy
        self.reason = reason
    }
}

package enum CodeChangeOutcome: Sendable, Equatable {
    case changed
    case familyGone
    /// The family's code is no longer the one the caller read.
    case codeChangedMeanwhile
    /// Another family took the new code meanwhile.
    case newCodeTaken
}

/// A family as an operator names it: by record id, code or external id.
package struct NamedFamily: Sendable, Equatable {
    package let id: FamilyID
    package let name: String
    package let code: String
    package let externalID: String?
    /// nil when the column holds no date (a hand edit).
    package let createdAt: Timestamp?
}

extension TribeBoardStore {
    /// "A family's code changed", kept in one place: the new code, `needs_sync = 1` with its remote
    /// code check cleared, the family's sync conflict forgotten (it was about the old code), and a
    /// `code_repairs` row (so resync updates the CloudKit record that still shows the old code and
    /// then releases the old code's claim). One IMMEDIATE transaction for all `changes`; each is
    /// re-checked inside it (the family still holds `expectedCode`, the new code is still free).
    package func changeCodes(_ changes: [CodeChange], at now: Timestamp = .now) throws(StoreError)
        -> [CodeChangeOutcome] {
        guard !changes.isEmpty else { return [] }
        do {
            return try writer.writeWithoutTransaction { db in
                var outcomes: [CodeChangeOutcome] = []
                try db.inTransaction(.immediate) {
                    outcomes = []
                    for change in changes {
                        let current = try String.fetchOne(db, sql: "SELECT code FROM families WHERE id = ?", arguments: [change.familyID])
                        guard let current else { outcomes.append(.familyGone); continue }
                        guard current == change.expectedCode else { outcomes.append(.codeChangedMeanwhile); continue }
                        guard try String.fetchOne(db, sql: "SELECT id FROM families WHERE code = ?", arguments: [change.newCode]) == nil else {
                            outcomes.append(.newCodeTaken)
                            continue
                        }
                        try db.execute(sql: "UPDATE families SET code = ?, needs_sync = 1, code_verified_remotely_at = NULL WHERE id = ?",
                                       arguments: [change.newCode, change.familyID])
                        try db.execute(sql: "DELETE FROM sync_state WHERE record_table = 'families' AND record_id = ?", arguments: [change.familyID])
                        // code_repairs keeps '' for "kept by no family" (a chosen recode).
                        try db.execute(sql: "INSERT INTO code_repairs (family_id, old_code, new_code, kept_by, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                                       arguments: [change.familyID, change.expectedCode, change.newCode, change.keptBy?.rawValue ?? "",
                                                   change.reason, now])
                        outcomes.append(.changed)
                    }
                    return .commit
                }
                return outcomes
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

/// A code change as `code_repairs` recorded it, for a family that still holds the new code.
package struct RecordedCodeChange: Sendable, Equatable {
    package let familyID: FamilyID
    package let familyName: String?
    package let code: String
    package let oldCode: String
    package let keptBy: FamilyID?
    package let reason: String
}

extension StoreReading {
    /// The family with this record id, code (as the app reads a typed code) or external id, in
    /// that order of preference: what `doctor family` and `recode` accept.
    package func namedFamily(_ query: String) throws(StoreError) -> NamedFamily? {
        let named = FamilyQuery(query)
        do {
            return try reader.read { db in
                let row = try named.family(db, columns: "f.id, f.name, f.code, f.import_key, f.created_at")
                guard let row, let id: FamilyID = row.id("id"), let code = row.text("code") else { return nil }
                let importKey = row.text("import_key")
                return NamedFamily(id: id, name: row.shown("name"), code: code,
                                   externalID: ImportKey.externalId(in: importKey),
                                   createdAt: row.timestamp("created_at"))
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// Each of these families whose current code a code change set, with that change (the latest,
    /// if its code changed more than once): what an interrupted repair still has to put in place.
    package func codeChangesInPlace(of ids: [FamilyID]) throws -> [RecordedCodeChange] {
        try reader.read { db in
            var changes: [FamilyID: RecordedCodeChange] = [:]
            for chunk in ids.chunked(500) {
                for row in try Row.fetchAll(db, sql: """
                    SELECT f.id, f.name, f.code, r.old_code, r.kept_by, r.reason FROM families f
                    JOIN code_repairs r ON r.family_id = f.id AND r.new_code = f.code
                    WHERE f.id IN \(SQLPlaceholders.list(chunk.count))
                    ORDER BY r.rowid
                    """, arguments: StatementArguments(Array(chunk))) {
                    guard let id: FamilyID = row.id("id"), let code = row.text("code") else { continue }
                    let keptBy: FamilyID? = row.text("kept_by").flatMap { $0.isEmpty ? nil : FamilyID(rawValue: $0) }
                    changes[id] = RecordedCodeChange(familyID: id, familyName: row.text("name"), code: code, oldCode: row.text("old_code") ?? "",
                                                     keptBy: keptBy, reason: row.text("reason") ?? "")
                }
            }
            return changes.values.sorted { $0.familyID < $1.familyID }
        }
    }
}

extension FamilyQuery {
    /// The family an operator names, by record id, code (as the app reads a typed code) or
    /// external id, in that order of preference: the one rule `namedFamily` (recode, remove,
    /// merge, adopt) and `familyHistory` (doctor family) share. `columns` of `families f`.
    func family(_ db: Database, columns: String) throws -> Row? {
        try Row.fetchOne(db, sql: """
            SELECT \(columns) FROM families f WHERE f.id = ? OR f.code = ? OR f.import_key = ?
            ORDER BY f.id = ? DESC, f.code = ? DESC LIMIT 1
            """, arguments: [recordID, code, ImportKey.external(typed), recordID, code])
    }
}
