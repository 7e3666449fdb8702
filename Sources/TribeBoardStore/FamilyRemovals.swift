import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardSupport

/// A member of a family support staff is removing or merging, as the store has it.
package struct CaseMember: Sendable, Equatable {
    package let membershipID: MembershipID
    package let userID: UserID
    package let displayName: String
    package let appleUserIdHash: String?
    package let role: String
    package let status: String
    /// The membership went up once: CloudKit holds its record.
    package let uploaded: Bool
    /// The person's profile went up once.
    package let profileUploaded: Bool
    /// No membership of another family uses the profile.
    package let profileOnlyHere: Bool

    package init(membershipID: MembershipID, userID: UserID, displayName: String, appleUserIdHash: String?, role: String, status: String,
                 uploaded: Bool, profileUploaded: Bool, profileOnlyHere: Bool) {
        (self.membershipID, self.userID, self.displayName, self.appleUserIdHash, self.role, self.status)
            = (membershipID, userID, displayName, appleUserIdHash, role, status)
        (self.uploaded, self.profileUploaded, self.profileOnlyHere) = (uploaded, profileUploaded, profileOnlyHere)
    }
}

/// One family as `remove`, `merge` and `adopt` read it: its row, its members, its claims.
package struct CaseFamily: Sendable, Equatable {
    package let id: FamilyID
    package let name: String
    package let code: String
    package let uploaded: Bool
    package let needsSync: Bool
    package let members: [CaseMember]
    /// The codes this store holds a CloudKit claim of for the family (its current one, older ones).
    package let claimedCodes: [String]
    /// Its creation never reached `completed` and it has no parent admin (`FamilyConditions.halfMade`).
    package let halfMade: Bool

    /// Members other than its parent admin (who needs `--force` or a merge to be removed with it).
    package var otherMembers: [CaseMember] { members.filter { $0.role != MembershipRole.parentAdmin.rawValue && $0.status != "removed" } }
    package var admin: CaseMember? {
        members.first { $0.role == MembershipRole.parentAdmin.rawValue && $0.status != "removed" }
    }
}

/// A removal support staff started: written before anything is deleted, finished once the family
/// left CloudKit and the store.
package struct FamilyRemoval: Sendable, Equatable {
    package let familyID: FamilyID
    package let name: String
    package let code: String
    package let mergedInto: FamilyID?
    /// nil when the column holds no date (a hand edit).
    package var startedAt: Timestamp?
    package var finishedAt: Timestamp?
    /// Whether the removal was recorded finished: `finished_at` is set (even to something that
    /// is not a date).
    package var finished = false

    package init(familyID: FamilyID, name: String, code: String, mergedInto: FamilyID?) {
        self.familyID = familyID
        self.name = name
        self.code = code
        self.mergedInto = mergedInto
    }
}

extension FamilyConditions {
    /// A creation that did not complete: logged, never `completed`, and no parent admin. Resync
    /// never uploads it (nor its memberships); support finishes it or removes it.
    package static func halfMade(_ family: String) -> String {
        """
        (EXISTS (SELECT 1 FROM creation_log l WHERE l.family_id = \(family).id)
         AND NOT EXISTS (SELECT 1 FROM creation_log l WHERE l.family_id = \(family).id AND l.state = 'completed')
         AND \(withoutParentAdmin(family)))
        """
    }

    /// A family support staff is removing (`remove`, `merge`): resync leaves it and its memberships.
    package static func beingRemoved(_ familyID: String) -> String {
        "EXISTS (SELECT 1 FROM family_removals r WHERE r.family_id = \(familyID) AND r.finished_at IS NULL)"
    }
}

extension TribeBoardStore {

    /// Records that these removals started, before anything is deleted: from now on resync leaves
    /// the families and their memberships alone. A removal already started is kept as it was.
    package func beginRemovals(_ removals: [FamilyRemoval], at now: Timestamp = .now) throws(StoreError) {
        guard !removals.isEmpty else { return }
        do {
            try writer.write { db in
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO family_removals (family_id, name, code, merged_into, started_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (family_id) DO NOTHING
                    """)
                for removal in removals {
                    try statement.execute(arguments: [removal.familyID, removal.name, removal.code, removal.mergedInto, now])
                }
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Takes these families out of the store in one transaction, once CloudKit no longer holds
    /// them: their memberships, sync bookkeeping and claim rows, and the profiles only they used
    /// that never went up (a profile in CloudKit is a person's, and stays). The creation log stays,
    /// and the removal is marked finished. Returns how many families were removed now.
    package func finishRemovals(_ ids: [FamilyID], at now: Timestamp = .now) throws(StoreError) -> Int {
        guard !ids.isEmpty else { return 0 }
        do {
            return try writer.write { db in
                var removed = 0
                for id in ids {
                    let users = try UserID.fetchAll(db, sql: "SELECT user_id FROM memberships WHERE family_id = ?", arguments: [id])
                    try db.execute(sql: """
                        DELETE FROM sync_state WHERE record_table = 'memberships'
                          AND record_id IN (SELECT id FROM memberships WHERE family_id = ?)
                        """, arguments: [id])
                    try db.execute(sql: "DELETE FROM memberships WHERE family_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM sync_state WHERE record_table = 'families' AND record_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM code_claims WHERE family_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM families WHERE id = ?", arguments: [id])
                    removed += db.changesCount
                    for user in users {
                        try db.execute(sql: """
                            DELETE FROM user_profiles WHERE id = ? AND ck_record_id IS NULL
                              AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = user_profiles.id)
                            """, arguments: [user])
                        if db.changesCount == 1 {
                            try db.execute(sql: "DELETE FROM sync_state WHERE record_table = 'user_profiles' AND record_id = ?", arguments: [user])
                        }
                    }
                    try db.execute(sql: "UPDATE family_removals SET finished_at = ? WHERE family_id = ? AND finished_at IS NULL",
                                   arguments: [now, id])
                }
                return removed
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

extension TribeBoardStore {
}

extension StoreReading {
    /// The families of `ids` the store holds, in the order asked (ids it does not hold are left out).
    package func caseFamilies(_ ids: [FamilyID]) throws(StoreError) -> [CaseFamily] {
        guard !ids.isEmpty else { return [] }
        do {
            return try reader.read { db in
                var found: [FamilyID: CaseFamily] = [:]
                for chunk in ids.chunked(500) {
                    let list = SQLPlaceholders.list(chunk.count)
                    let arguments = StatementArguments(Array(chunk))
                    var members: [FamilyID: [CaseMember]] = [:]
                    for row in try Row.fetchAll(db, sql: """
                        SELECT m.id, m.family_id, m.user_id, m.role, m.status, m.ck_record_id IS NOT NULL AS uploaded,
                               u.display_name, u.apple_user_id_hash, u.ck_record_id IS NOT NULL AS profile_uploaded,
                               NOT EXISTS (SELECT 1 FROM memberships o WHERE o.user_id = m.user_id AND o.family_id != m.family_id) AS only_here
                        FROM memberships m LEFT JOIN user_profiles u ON u.id = m.user_id
                        WHERE m.family_id IN \(list) ORDER BY m.id
                        """, arguments: arguments) {
                        guard let family: FamilyID = row.id("family_id"), let id: MembershipID = row.id("id"),
                              let user: UserID = row.id("user_id") else {
                            continue
                        }
                        members[family, default: []].append(CaseMember(
                            membershipID: id, userID: user, displayName: row.shown("display_name"),
                            appleUserIdHash: row.text("apple_user_id_hash"), role: row.shown("role"), status: row.shown("status"),
                            uploaded: row.integer("uploaded") == 1, profileUploaded: row.integer("profile_uploaded") == 1,
                            profileOnlyHere: row.integer("only_here") == 1))
                    }
                    var claims: [FamilyID: [String]] = [:]
                    for row in try Row.fetchAll(db, sql: "SELECT family_id, code FROM code_claims WHERE family_id IN \(list) ORDER BY code",
                                                arguments: arguments) {
                        guard let family: FamilyID = row.id("family_id"), let code = row.text("code") else { continue }
                        claims[family, default: []].append(code)
                    }
                    for row in try Row.fetchAll(db, sql: """
                        SELECT f.id, f.name, f.code, f.ck_record_id IS NOT NULL AS uploaded, f.needs_sync,
                               \(FamilyConditions.halfMade("f")) AS half_made
                        FROM families f WHERE f.id IN \(list)
                        """, arguments: arguments) {
                        guard let id: FamilyID = row.id("id"), let code = row.text("code") else { continue }
                        found[id] = CaseFamily(id: id, name: row.shown("name"), code: code, uploaded: row.integer("uploaded") == 1,
                                               needsSync: row.integer("needs_sync") == 1, members: members[id] ?? [],
                                               claimedCodes: claims[id] ?? [], halfMade: row.integer("half_made") == 1)
                    }
                }
                return ids.compactMap { found[$0] }
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// The removals started for these families (finished or not), by family id.
    package func familyRemovals(_ ids: [FamilyID]) throws(StoreError) -> [FamilyID: FamilyRemoval] {
        guard !ids.isEmpty else { return [:] }
        do {
            return try reader.read { db in
                var removals: [FamilyID: FamilyRemoval] = [:]
                for chunk in ids.chunked(500) {
                    for row in try Row.fetchAll(db, sql: "SELECT * FROM family_removals WHERE family_id IN \(SQLPlaceholders.list(chunk.count))",
                                                arguments: StatementArguments(Array(chunk))) {
                        guard let id: FamilyID = row.id("family_id") else { continue }
                        var removal = FamilyRemoval(familyID: id, name: row.shown("name"), code: row.shown("code"),
                                                    mergedInto: row.id("merged_into"))
                        removal.startedAt = row.timestamp("started_at")
                        removal.finishedAt = row.timestamp("finished_at")
                        removal.finished = row.text("finished_at") != nil
                        removals[id] = removal
                    }
                }
                return removals
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// Creations that did not complete (`FamilyConditions.halfMade`) and are not being removed:
    /// how many, and the first `limit` by id.
    package func halfMadeCreations(limit: Int) throws(StoreError) -> (count: Int, ids: [FamilyID]) {
        let condition = "\(FamilyConditions.halfMade("f")) AND NOT \(FamilyConditions.beingRemoved("f.id"))"
        do {
            return try reader.read { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM families f WHERE \(condition)") ?? 0
                let ids = try FamilyID.fetchAll(db, sql: "SELECT f.id FROM families f WHERE \(condition) ORDER BY f.id LIMIT ?",
                                              arguments: [max(limit, 0)])
                return (count, ids)
            }
        } catch {
            throw .reading(error, store: path)
        }
    }

    /// The removal of the family this id or code named, once the family is gone from the store:
    /// how a rerun of `remove` or `merge` knows its work is done.
    package func removal(matching query: String) throws(StoreError) -> FamilyRemoval? {
        let named = FamilyQuery(query)
        do {
            let id = try reader.read { db in
                guard try db.tableExists("family_removals") else { return nil as FamilyID? }
                return try FamilyID.fetchOne(db, sql: """
                    SELECT family_id FROM family_removals WHERE family_id = ? OR code = ? ORDER BY family_id = ? DESC, started_at DESC LIMIT 1
                    """, arguments: [named.recordID, named.code, named.recordID])
            }
            guard let id else { return nil }
            return try familyRemovals([id])[id]
        } catch let error as StoreError {
            throw error
        } catch {
            throw .reading(error, store: path)
        }
    }
}
