import Foundation
import GRDB
import Logging

/// Uploads the records still waiting for sync: families, then user profiles, then memberships
/// (references need their targets), 200 per request, every result read one by one.
///
/// Idempotent: a create answered EXISTS for a record identical to ours is a success (the upload
/// happened before a crash cut the local mark); a different record under that name is a conflict
/// and is never overwritten. What fails stays pending for the next run.
public struct PendingUploader: Sendable {
    public struct Outcome: Sendable, Equatable {
        public var uploaded = 0
        public var failed = 0
        /// What stopped the upload, when the remote itself failed.
        public var stoppedBy: CloudKitError?
    }

    let store: TribeBoardStore
    let client: CloudKitClient
    let logger: Logger

    public init(store: TribeBoardStore, client: CloudKitClient, logger: Logger) {
        self.store = store
        self.client = client
        self.logger = logger
    }

    public func run() throws(StoreError) -> Outcome {
        var outcome = Outcome()
        for kind in PendingKind.allCases {
            var after = ""
            while outcome.stoppedBy == nil {
                let records = try pending(kind, after: after)
                guard let last = records.last else { break }
                after = last.recordName
                let client = client
                switch BlockingBridge.run({ () async throws(CloudKitError) in try await client.modify(records.map { CloudKitOperation(.create, $0) }) }) {
                case .failure(let error):
                    outcome.stoppedBy = error
                case .success(let results):
                    let synced = try settle(records, results: results, outcome: &outcome)
                    try markSynced(kind, ids: synced)
                }
            }
        }
        return outcome
    }

    /// Which of `records` are now on the remote.
    private func settle(_ records: [CloudKitRecord], results: [CloudKitRecordResult], outcome: inout Outcome) throws(StoreError) -> [String] {
        var synced: [String] = []
        var existing: [CloudKitRecord] = []
        for (record, result) in zip(records, results) {
            switch result {
            case .record: synced.append(record.recordName)
            case .failure(let error) where error.code == .exists: existing.append(record)
            case .failure(let error):
                outcome.failed += 1
                logger.warning("record not uploaded", metadata: ["record": "\(record.recordName)", "error": "\(error.serverErrorCode)",
                                                                 "reason": "\(error.reason ?? "")"])
            }
        }
        if !existing.isEmpty {
            let client = client
            let names = existing.map(\.recordName)
            if case .success(let remote) = BlockingBridge.run({ () async throws(CloudKitError) in try await client.lookup(recordNames: names) }) {
                for (ours, theirs) in zip(existing, remote) {
                    if case .record(let found) = theirs, Self.sameContent(ours, found) {
                        synced.append(ours.recordName)
                    } else {
                        outcome.failed += 1
                        logger.warning("a different record with this name is already in CloudKit; not overwritten",
                                       metadata: ["record": "\(ours.recordName)"])
                    }
                }
            } else {
                outcome.failed += existing.count
            }
        }
        outcome.uploaded += synced.count
        return synced
    }

    /// The same type and the same values in every field we write (references by record name).
    static func sameContent(_ ours: CloudKitRecord, _ theirs: CloudKitRecord) -> Bool {
        guard ours.recordType == theirs.recordType else { return false }
        for (key, field) in ours.fields ?? [:] {
            guard let other = theirs.fields?[key] else { return false }
            if field.type == "REFERENCE" {
                guard field.value.object?["recordName"] == other.value.object?["recordName"] else { return false }
            } else if field.value != other.value {
                return false
            }
        }
        return true
    }

    // MARK: Store

    enum PendingKind: CaseIterable {
        case families, userProfiles, memberships

        var table: String {
            switch self {
            case .families: return "families"
            case .userProfiles: return "user_profiles"
            case .memberships: return "memberships"
            }
        }
    }

    private func pending(_ kind: PendingKind, after: String) throws(StoreError) -> [CloudKitRecord] {
        do {
            return try store.writer.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(kind.table) WHERE needs_sync = 1 AND id > ? ORDER BY id LIMIT ?",
                                            arguments: [after, CloudKitClient.maxOperationsPerRequest])
                return rows.compactMap { Self.record(kind, row: $0) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    static func record(_ kind: PendingKind, row: Row) -> CloudKitRecord? {
        func date(_ column: String) -> Date? { (row[column] as String?).flatMap(RecordMapping.date(fromStoreTimestamp:)) }
        switch kind {
        case .families:
            guard let created = date("created_at") else { return nil }
            return RecordMapping.family(id: row["id"], name: row["name"], code: row["code"],
                                        createdByUserId: row["created_by_user_id"], createdAt: created)
        case .userProfiles:
            guard let created = date("created_at") else { return nil }
            return RecordMapping.userProfile(id: row["id"], displayName: row["display_name"], appleUserIdHash: row["apple_user_id_hash"],
                                             avatarUrl: row["avatar_url"], createdAt: created)
        case .memberships:
            guard let joined = date("joined_at"),
                  let role = MembershipRole(rawValue: row["role"]), let status = MembershipStatus(rawValue: row["status"]) else { return nil }
            return RecordMapping.membership(id: row["id"], familyID: row["family_id"], userID: row["user_id"], role: role,
                                            status: status, joinedAt: joined, lastRoleChangeAt: date("last_role_change_at"))
        }
    }

    private func markSynced(_ kind: PendingKind, ids: [String]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let now = StoreTimestamp.format(Date())
        do {
            try store.writer.write { db in
                for id in ids {
                    try db.execute(sql: "UPDATE \(kind.table) SET needs_sync = 0, last_sync_date = ?, ck_record_id = id WHERE id = ?",
                                   arguments: [now, id])
                    if kind == .families {
                        try CreationLog.append(db, familyID: id, importKey: nil, line: nil,
                                               states: [.syncingToCloudKit, .completed], failure: nil, at: now)
                    }
                }
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }
}
