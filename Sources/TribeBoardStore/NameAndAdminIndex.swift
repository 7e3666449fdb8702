import Foundation
import GRDB
import TribeBoardDomain

/// Families by folded name and admin, for one provision run: those of the store and the rows of
/// the file seen so far, in a `ScratchDatabase` (memory stays flat at a million families, and
/// nothing outlives the run). The keys are made by the caller (the fold is the provisioning's rule, not the store's).
package final class NameAndAdminIndex: Sendable {
    /// Who holds a key: a family of the store, or a row of the file.
    package struct Holder: Sendable, Equatable {
        package let familyID: FamilyID?
        package let line: Int?
        package let externalId: String?
        package let name: String
        package let importKey: String?

        package init(familyID: FamilyID?, line: Int?, externalId: String?, name: String, importKey: String?) {
            (self.familyID, self.line, self.externalId, self.name, self.importKey) = (familyID, line, externalId, name, importKey)
        }
    }

    /// A row to check: its keys, and who it is (its import key tells a re-run of the same family).
    package struct Candidate: Sendable {
        package let keys: [String]
        package let holder: Holder

        package init(keys: [String], holder: Holder) { (self.keys, self.holder) = (keys, holder) }
    }

    private let queue: DatabaseQueue

    package init() throws(StoreError) {
        queue = try ScratchDatabase.open(for: "possible duplicates", schema: """
            CREATE TABLE holders (key TEXT NOT NULL, family_id TEXT, line INTEGER, external_id TEXT,
                                  name TEXT NOT NULL, import_key TEXT)
            """)
    }

    /// Adds holders in one transaction (the store's families, at the start of a run).
    package func add(_ entries: [(key: String, holder: Holder)]) throws(StoreError) {
        do {
            try queue.write { db in
                let insert = try Self.insert(db)
                for entry in entries { try insert(entry.key, entry.holder) }
            }
        } catch {
            throw .writeFailed(reason: "scratch database for possible duplicates: \(StoreError.reason(error))")
        }
    }

    /// For each candidate in order, the earliest holder of one of its keys, or nil: none, or the
    /// candidate is that holder's family again (same import key: a re-run). A candidate without
    /// a match is added, so that later rows match it; one with a match is added unless `keepMatched`
    /// is false (a skipped row is not a family later rows can duplicate).
    package func firstHolders(of candidates: [Candidate], keepMatched: Bool) throws(StoreError) -> [Holder?] {
        do {
            return try queue.write { db in
                // Made once the store's families are in: one sort instead of a million index updates.
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS holders_key ON holders(key)")
                let insert = try Self.insert(db)
                let lookup = try db.cachedStatement(sql: """
                    SELECT family_id, line, external_id, name, import_key FROM holders WHERE key = ? ORDER BY rowid LIMIT 16
                    """)
                return try candidates.map { candidate in
                    var first: Holder?
                    for key in candidate.keys {
                        for row in try Row.fetchAll(lookup, arguments: [key]) {
                            let holder = Holder(familyID: row.id("family_id"), line: row.integer("line"),
                                                externalId: row.text("external_id"), name: row.text("name") ?? "?",
                                                importKey: row.text("import_key"))
                            if holder.importKey != nil && holder.importKey == candidate.holder.importKey { return nil }
                            if first == nil { first = holder }
                        }
                    }
                    if first == nil || keepMatched {
                        for key in candidate.keys { try insert(key, candidate.holder) }
                    }
                    return first
                }
            }
        } catch {
            throw .writeFailed(reason: "scratch database for possible duplicates: \(StoreError.reason(error))")
        }
    }

    /// The bound fast path: a run at a million families inserts a million holders.
    private static func insert(_ db: Database) throws -> (String, Holder) throws -> Void {
        let statement = try BoundStatement(db, "INSERT INTO holders (key, family_id, line, external_id, name, import_key) VALUES (?, ?, ?, ?, ?, ?)")
        return { key, holder in
            try statement.execute([.text(key), .text(holder.familyID?.rawValue), holder.line.map { .integer($0) } ?? .null,
                                   .text(holder.externalId), .text(holder.name), .text(holder.importKey)])
        }
    }
}
