import Foundation
import GRDB
import TribeBoardDomain

/// A member `merge` moves into the family that stays: a new membership there (the duplicate's
/// goes with the duplicate), and the person's profile when only CloudKit had it (an app user who
/// joined the duplicate in the app).
package struct MemberMove: Sendable, Equatable {
    package let membershipID: MembershipID
    package let familyID: FamilyID
    package let userID: UserID
    package let role: MembershipRole
    package let status: MembershipStatus
    package let joinedAt: Timestamp
    /// The profile as CloudKit holds it, to add when the store has none.
    package var profile: ImportedProfile?

    package init(membershipID: MembershipID, familyID: FamilyID, userID: UserID, role: MembershipRole, status: MembershipStatus,
                 joinedAt: Timestamp, profile: ImportedProfile? = nil) {
        (self.membershipID, self.familyID, self.userID, self.role, self.status, self.joinedAt, self.profile)
            = (membershipID, familyID, userID, role, status, joinedAt, profile)
    }
}

/// A user profile read from CloudKit: stored as uploaded (CloudKit already holds it).
extension MemberMove {
    /// The membership row: pending, or as CloudKit holds it (`uploadedAt`).
    func record(uploadedAt: Timestamp?) -> Membership {
        Membership(id: membershipID, familyID: familyID, userID: userID, role: role, status: status,
                   joinedAt: joinedAt, uploadedAt: uploadedAt)
    }
}

package struct ImportedProfile: Sendable, Equatable {
    package let id: UserID
    package let displayName: String
    package let appleUserIdHash: String?
    package let createdAt: Timestamp

    package init(id: UserID, displayName: String, appleUserIdHash: String?, createdAt: Timestamp) {
        (self.id, self.displayName, self.appleUserIdHash, self.createdAt) = (id, displayName, appleUserIdHash, createdAt)
    }
}

extension ImportedProfile {
    /// The profile row, as uploaded (CloudKit holds it).
    func record(uploadedAt: Timestamp) -> UserProfile {
        UserProfile(id: id, displayName: displayName, appleUserIdHash: appleUserIdHash, createdAt: createdAt,
                    uploadedAt: uploadedAt)
    }
}

extension TribeBoardStore {
    /// Adds the moved members to the family that stays, in one transaction (pending: CloudKit
    /// gets them next). A person already active or invited there is not added twice; an active
    /// parent admin while the family has one is refused by the store's unique index (thrown).
    /// Returns the memberships added.
    package func addMovedMembers(_ moves: [MemberMove], at now: Timestamp = .now) throws(StoreError)
        -> [MembershipID] {
        guard !moves.isEmpty else { return [] }
        do {
            return try writer.write { db in
                var added: [MembershipID] = []
                for move in moves {
                    try move.profile?.record(uploadedAt: now).insertRow(db, "ON CONFLICT (id) DO NOTHING")
                    let present = try Bool.fetchOne(db, sql: """
                        SELECT EXISTS (SELECT 1 FROM memberships WHERE family_id = ? AND user_id = ? AND status IN ('active', 'invited'))
                        """, arguments: [move.familyID, move.userID]) ?? false
                    guard !present else { continue }
                    try move.record(uploadedAt: nil).insertRow(db)
                    added.append(move.membershipID)
                }
                return added
            }
        } catch {
            throw .writing(error, store: path)
        }
    }

    /// Marks memberships uploaded that a merge created in CloudKit itself (still pending, unchanged).
    package func markMembershipsUploaded(_ ids: [MembershipID], at now: Timestamp = .now) throws(StoreError) {
        guard !ids.isEmpty else { return }
        do {
            try writer.write { db in
                try db.execute(sql: """
                    UPDATE memberships SET needs_sync = 0, last_sync_date = ?, ck_record_id = id
                    WHERE needs_sync = 1 AND id IN \(SQLPlaceholders.list(ids.count))
                    """, arguments: StatementArguments([now]) + StatementArguments(ids))
            }
        } catch {
            throw .writing(error, store: path)
        }
    }
}

extension StoreReading {
    /// A pending membership as its CloudKit record needs it: family, user, role, status, dates.
    package func pendingMemberships(_ ids: [MembershipID]) throws(StoreError) -> [Membership] {
        guard !ids.isEmpty else { return [] }
        do {
            return try reader.read { db in
                try Membership.fetchAll(db, sql: "SELECT * FROM memberships WHERE needs_sync = 1 AND id IN \(SQLPlaceholders.list(ids.count))",
                                        arguments: StatementArguments(ids))
            }
        } catch {
            throw .reading(error, store: path)
        }
    }
}
