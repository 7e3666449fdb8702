import Foundation
import GRDB
import TribeBoardStore
import TribeBoardSupport

/// What an audit reads from the local store. Read-only: an audit never migrates or writes.
struct LocalAuditQueries: Sendable {
    let store: TribeBoardStore

    struct FamilyDetails {
        let name: String
        let createdAt: String
        /// When resync last uploaded it (nil: never).
        let lastSyncDate: String?
    }

    /// Every family's id and code, in one pass.
    func scanFamilies() throws -> LocalFamilyIndex {
        try store.writer.read { db in
            let expected = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM families") ?? 0
            var index = LocalFamilyIndex(expectedCount: expected)
            try BoundStatement(db, "SELECT id, code, needs_sync = 0 FROM families").forEachRow([]) { row in
                index.add(id: row.text(0) ?? "", code: row.text(1) ?? "", uploaded: row.text(2) == "1")
            }
            return index
        }
    }

    /// Families without a parent_admin membership that is active or invited: the app left them
    /// half created (an invited admin is how provisioning creates families, and is fine).
    func familiesWithoutAdmin() throws -> [AuditFamily] {
        try store.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT f.id, f.name, f.created_at FROM families f
                WHERE \(FamilyConditions.withoutParentAdmin("f"))
                ORDER BY f.created_at, f.id
                """).map { AuditFamily(id: $0.shown("id"), name: $0.shown("name"), location: .local, createdAt: $0.text("created_at")) }
        }
    }

    /// Families waiting for sync since before `cutoff`: how many, and the oldest `limit` of them
    /// (all when nil).
    func stalePendingFamilies(before cutoff: Date, limit: Int?) throws -> (count: Int, sample: [AuditFamily]) {
        let pendingSince = FamilyConditions.pendingSince("f", hasRepairTable: try hasRepairTable())
        let stale = "SELECT f.id, f.name, f.created_at, \(pendingSince) AS pending_since FROM families f WHERE f.needs_sync = 1"
        let cutoffText = StoreTimestamp.format(cutoff)
        return try store.writer.read { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(stale)) WHERE pending_since < ?", arguments: [cutoffText]) ?? 0
            let limitClause = limit.map { " LIMIT \($0)" } ?? ""
            let sample = try Row.fetchAll(db, sql: "SELECT * FROM (\(stale)) WHERE pending_since < ? ORDER BY pending_since, id\(limitClause)",
                                          arguments: [cutoffText])
                .map { AuditFamily(id: $0.shown("id"), name: $0.shown("name"), location: .local, createdAt: $0.text("created_at")) }
            return (count, sample)
        }
    }

    /// Names and creation dates of the families a finding names.
    func details(of ids: [String]) throws -> [String: FamilyDetails] {
        var details: [String: FamilyDetails] = [:]
        try store.writer.read { db in
            for chunk in ids.chunked(500) {
                let rows = try Row.fetchAll(db, sql: "SELECT id, name, created_at, last_sync_date FROM families WHERE id IN \(SQLPlaceholders.list(chunk.count))",
                                            arguments: StatementArguments(Array(chunk)))
                for row in rows { details[row.shown("id")] = FamilyDetails(name: row.shown("name"), createdAt: row.shown("created_at"),
                                                                         lastSyncDate: row.text("last_sync_date")) }
            }
        }
        return details
    }

    /// Codes each family had before a repair changed them: their CloudKit copies keep the old
    /// code until resync uploads the new one.
    func repairedCodes() throws -> [String: Set<String>] {
        guard try hasRepairTable() else { return [:] }
        return try store.writer.read { db in
            var codes: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT family_id, old_code FROM code_repairs") {
                guard let family = row.text("family_id"), let old = row.text("old_code") else { continue }
                codes[family, default: []].insert(old)
            }
            return codes
        }
    }

    private func hasRepairTable() throws -> Bool {
        try store.writer.read { db in try db.tableExists("code_repairs") }
    }
}
