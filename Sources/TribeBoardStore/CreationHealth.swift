import Foundation
import GRDB
import TribeBoardDomain

/// A creation that never reached `completed` in the creation log.
package struct StalledCreation: Sendable, Equatable {
    package let familyID: FamilyID
    /// nil when no family row was saved.
    package let name: String?
    package let code: String?
    package let lastAt: Timestamp?
    package let lastState: String?
    package let lastError: String?
}

/// A family whose uploads keep failing, or that resync set aside.
package struct FailingUpload: Sendable, Equatable {
    package let familyID: FamilyID
    package let name: String?
    package let code: String?
    package let status: String?
    package let attempts: Int
    package let lastError: String?
    package let lastAt: Timestamp?
    package let conflictWith: String?
}

/// A family waiting for sync, and since when (its creation or its last code change).
package struct PendingFamily: Sendable, Equatable {
    package let familyID: FamilyID
    package let name: String?
    package let code: String?
    package let since: Timestamp?
}

/// What `doctor`'s creation checks read: counts and the oldest few of each kind of trouble.
extension StoreReading {
    package func stalledCreations(limit: Int) throws -> Sampled<StalledCreation> {
        // A family support removed is closed: its log stays as history, not as a stalled creation.
        let removed = try reader.read { db in try db.tableExists("family_removals") }
            ? "AND NOT EXISTS (SELECT 1 FROM family_removals r WHERE r.family_id = l.family_id AND r.finished_at IS NOT NULL)" : ""
        let stalled = """
            SELECT l.family_id AS id, f.name AS name, f.code AS code, MAX(l.at) AS last_at,
                   (SELECT state FROM creation_log x WHERE x.family_id = l.family_id ORDER BY x.id DESC LIMIT 1) AS last_state,
                   (SELECT error FROM creation_log x WHERE x.family_id = l.family_id AND x.error IS NOT NULL ORDER BY x.id DESC LIMIT 1) AS last_error
            FROM creation_log l LEFT JOIN families f ON f.id = l.family_id
            WHERE l.family_id IS NOT NULL \(removed)
            GROUP BY l.family_id HAVING SUM(l.state = 'completed') = 0
            """
        return try reader.read { db in
            try Self.countAndSample(db, stalled, order: "last_at", limit: limit) {
                StalledCreation(familyID: FamilyID(rawValue: $0.shown("id")), name: $0.text("name"),
                                code: $0.text("code"), lastAt: $0.timestamp("last_at"),
                                lastState: $0.text("last_state"), lastError: $0.text("last_error"))
            }
        }
    }

    /// Families set aside (quarantined, in conflict) or retried `minimumAttempts` times or more,
    /// and how many profiles or memberships are set aside. Empty without a sync_state table.
    package func failingUploads(minimumAttempts: Int, limit: Int) throws -> (families: Sampled<FailingUpload>, othersSetAside: Int) {
        let failing = """
            SELECT s.record_id AS id, f.name AS name, f.code AS code, s.status AS status, s.attempts AS attempts,
                   s.last_error AS last_error, s.last_attempt_at AS last_at, s.conflict_with AS conflict_with
            FROM sync_state s LEFT JOIN families f ON f.id = s.record_id
            WHERE s.record_table = 'families' AND (s.status != 'retrying' OR s.attempts >= \(minimumAttempts))
            """
        return try reader.read { db in
            guard try db.tableExists("sync_state") else { return (Sampled(count: 0, sample: []), 0) }
            let families = try Self.countAndSample(db, failing, order: "last_at", limit: limit) {
                FailingUpload(familyID: FamilyID(rawValue: $0.shown("id")), name: $0.text("name"), code: $0.text("code"), status: $0.text("status"),
                              attempts: $0.integer("attempts") ?? 0, lastError: $0.text("last_error"), lastAt: $0.timestamp("last_at"),
                              conflictWith: $0.text("conflict_with"))
            }
            let others = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_state WHERE record_table != 'families' AND status != 'retrying'") ?? 0
            return (families, others)
        }
    }

    /// Families waiting for sync (those failing as `failingUploads` counts them left out): the
    /// ones waiting since before `cutoff`, and how many wait in all.
    package func pendingFamilies(staleBefore cutoff: Timestamp, failingAfter minimumAttempts: Int,
                                 limit: Int) throws -> (stale: Sampled<PendingFamily>, total: Int) {
        try reader.read { db in
            let notFailing = try db.tableExists("sync_state") ? """
                AND NOT EXISTS (SELECT 1 FROM sync_state s WHERE s.record_table = 'families' AND s.record_id = f.id
                                AND (s.status != 'retrying' OR s.attempts >= \(minimumAttempts)))
                """ : ""
            let since = FamilyConditions.pendingSince("f", hasRepairTable: try db.tableExists("code_repairs"))
            let pending = "SELECT f.id AS id, f.name AS name, f.code AS code, \(since) AS since FROM families f WHERE f.needs_sync = 1 \(notFailing)"
            let stale = try Self.countAndSample(db, pending + " AND \(since) < '\(cutoff.text)'", order: "since", limit: limit) {
                PendingFamily(familyID: FamilyID(rawValue: $0.shown("id")), name: $0.text("name"),
                              code: $0.text("code"), since: $0.timestamp("since"))
            }
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(pending))") ?? 0
            return (stale, total)
        }
    }

    private static func countAndSample<Item>(_ db: Database, _ sql: String, order: String, limit: Int,
                                             _ item: (Row) -> Item) throws -> Sampled<Item> {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))") ?? 0
        guard count > 0 else { return Sampled(count: 0, sample: []) }
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM (\(sql)) ORDER BY \(order) LIMIT \(max(limit, 0))")
        return Sampled(count: count, sample: rows.map(item))
    }
}
