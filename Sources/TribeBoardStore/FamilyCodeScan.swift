import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardSupport

/// A family as a report names it.
package struct FamilySummary: Sendable, Equatable {
    package let id: FamilyID
    package let name: String
    package let code: String?
    package let createdAt: Timestamp?
}

/// A family's name and dates, for the few families an audit finding names.
package struct FamilyDetails: Sendable, Equatable {
    package let name: String
    /// nil when the column holds no date (a hand edit).
    package let createdAt: Timestamp?
    /// When resync last uploaded it (nil: never, or no date).
    package let lastSyncDate: Timestamp?
}

/// How many, and the first of them.
package struct Sampled<Item: Sendable>: Sendable {
    package var count: Int
    package var sample: [Item]
}

/// What the audit reads: every family's id and code in one pass (the measured fast path, a
/// `BoundStatement`), then names and dates for the families a finding names. Reads only.
extension StoreReading {
    /// `expected` gets the number of families first (to reserve room), then `family` each one:
    /// id, code, and whether the store marks it uploaded (`needs_sync = 0`).
    package func scanFamilyCodes(expected: (Int) -> Void, _ family: (_ id: FamilyID, _ code: String, _ uploaded: Bool) -> Void) throws {
        try reader.read { db in
            expected(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM families") ?? 0)
            try BoundStatement(db, "SELECT id, code, needs_sync = 0 FROM families").forEachRow([]) { row in
                family(FamilyID(rawValue: row.text(0) ?? ""), row.text(1) ?? "", row.integer(2) == 1)
            }
        }
    }

    /// Names and dates of these families (ids of no family are left out).
    package func familyDetails(of ids: [FamilyID]) throws -> [FamilyID: FamilyDetails] {
        var details: [FamilyID: FamilyDetails] = [:]
        try reader.read { db in
            for chunk in ids.chunked(500) {
                let rows = try Row.fetchAll(db, sql: "SELECT id, name, created_at, last_sync_date FROM families "
                                                + "WHERE id IN \(SQLPlaceholders.list(chunk.count))",
                                            arguments: StatementArguments(Array(chunk)))
                for row in rows {
                    details[FamilyID(rawValue: row.shown("id"))] = FamilyDetails(
                        name: row.shown("name"), createdAt: row.timestamp("created_at"),
                        lastSyncDate: row.timestamp("last_sync_date"))
                }
            }
        }
        return details
    }

    /// The codes of these families now (ids of no family are left out).
    package func currentCodes(of ids: [FamilyID]) throws -> [FamilyID: String] {
        var codes: [FamilyID: String] = [:]
        try reader.read { db in
            for chunk in ids.chunked(500) {
                for row in try Row.fetchAll(db, sql: "SELECT id, code FROM families WHERE id IN \(SQLPlaceholders.list(chunk.count))",
                                            arguments: StatementArguments(Array(chunk))) {
                    if let id: FamilyID = row.id("id"), let code = row.text("code") { codes[id] = code }
                }
            }
        }
        return codes
    }

    /// Codes each family had before a code change replaced them: their CloudKit copies keep the
    /// old code until resync uploads the new one. `of`: only these families (nil: every family).
    package func replacedCodes(of ids: [FamilyID]? = nil) throws -> [FamilyID: Set<String>] {
        if ids?.isEmpty == true { return [:] }
        return try reader.read { db in
            guard try db.tableExists("code_repairs") else { return [:] }
            var codes: [FamilyID: Set<String>] = [:]
            let sql = "SELECT family_id, old_code FROM code_repairs"
            let rows = try ids.map { ids in
                try ids.chunked(500).flatMap { chunk in
                    try Row.fetchAll(db, sql: "\(sql) WHERE family_id IN \(SQLPlaceholders.list(chunk.count))",
                                     arguments: StatementArguments(Array(chunk)))
                }
            } ?? Row.fetchAll(db, sql: sql)
            for row in rows {
                guard let family: FamilyID = row.id("family_id"), let old = row.text("old_code") else { continue }
                codes[family, default: []].insert(old)
            }
            return codes
        }
    }

    /// Families with neither an active parent admin nor one awaiting (`FamilyConditions`), oldest
    /// first; all of them when `limit` is nil.
    package func familiesWithoutParentAdmin(limit: Int?) throws -> Sampled<FamilySummary> {
        try families(where: FamilyConditions.withoutParentAdmin("f"), limit: limit)
    }

    /// Families whose only admin was invited without a hash and has not joined yet, oldest first.
    package func familiesAwaitingInvitedAdmin(limit: Int?) throws -> Sampled<FamilySummary> {
        try families(where: FamilyConditions.awaitingInvitedAdmin("f"), limit: limit)
    }

    private func families(where condition: String, limit: Int?) throws -> Sampled<FamilySummary> {
        let matching = "SELECT f.id, f.name, f.code, f.created_at FROM families f WHERE \(condition)"
        return try reader.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(matching))") ?? 0
            guard count > 0 else { return Sampled(count: 0, sample: []) }
            let limitClause = limit.map { " LIMIT \(max($0, 0))" } ?? ""
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM (\(matching)) ORDER BY created_at, id\(limitClause)")
            return Sampled(count: count, sample: rows.map(Self.summary))
        }
    }

    /// Families waiting for sync since before `cutoff` (since creation or their last code
    /// change), oldest first; all of them when `limit` is nil.
    package func familiesPending(since cutoff: Timestamp, limit: Int?) throws -> Sampled<FamilySummary> {
        try reader.read { db in
            let since = FamilyConditions.pendingSince("f", hasRepairTable: try db.tableExists("code_repairs"))
            let stale = "SELECT f.id, f.name, f.code, f.created_at, \(since) AS pending_since FROM families f WHERE f.needs_sync = 1"
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(stale)) WHERE pending_since < ?", arguments: [cutoff]) ?? 0
            let limitClause = limit.map { " LIMIT \(max($0, 0))" } ?? ""
            let sample = try Row.fetchAll(db, sql: "SELECT * FROM (\(stale)) WHERE pending_since < ? ORDER BY pending_since, id\(limitClause)",
                                          arguments: [cutoff]).map(Self.summary)
            return Sampled(count: count, sample: sample)
        }
    }

    static func summary(_ row: Row) -> FamilySummary {
        FamilySummary(id: FamilyID(rawValue: row.shown("id")), name: row.shown("name"), code: row.text("code"),
                      createdAt: row.timestamp("created_at"))
    }
}
