import TribeBoardDomain

/// SQL conditions on `families` that audit, doctor and resync share, so all judge a family the
/// same way. "Has an admin" is the app's rule: an active `parent_admin` membership.
package enum FamilyConditions {
    /// An active parent_admin membership: the app's admin.
    package static func withActiveAdmin(_ family: String) -> String {
        """
        EXISTS (SELECT 1 FROM memberships m WHERE m.family_id = \(family).id AND m.role = 'parent_admin'
                AND m.status = 'active')
        """
    }

    /// No active admin, but an invited parent_admin whose profile has no Apple user id hash
    /// (`AwaitingPerson`): the store keeps them until they take the seat through the join kit.
    package static func awaitingInvitedAdmin(_ family: String) -> String {
        """
        (NOT \(withActiveAdmin(family))
         AND EXISTS (SELECT 1 FROM memberships m JOIN user_profiles u ON u.id = m.user_id
                     WHERE m.family_id = \(family).id AND m.role = 'parent_admin' AND m.status = 'invited'
                     AND u.apple_user_id_hash IS NULL))
        """
    }

    /// Neither an active admin nor one awaiting: what the app reads as a partially created family.
    package static func withoutParentAdmin(_ family: String) -> String {
        "(NOT \(withActiveAdmin(family)) AND NOT \(awaitingInvitedAdmin(family)))"
    }

    /// The family's `AdminState` as a column (its raw value).
    package static func adminState(_ family: String) -> String {
        """
        CASE WHEN \(withActiveAdmin(family)) THEN '\(AdminState.active.rawValue)'
             WHEN \(awaitingInvitedAdmin(family)) THEN '\(AdminState.awaitingInvitedAdmin.rawValue)'
             ELSE '\(AdminState.none.rawValue)' END
        """
    }

    /// Since when a pending family has waited: its creation, its last upload, or the audit repair
    /// that gave it a new code, whichever is latest (ISO 8601 text compares as time).
    package static func pendingSince(_ family: String, hasRepairTable: Bool) -> String {
        let repaired = hasRepairTable ? ", COALESCE((SELECT MAX(r.at) FROM code_repairs r WHERE r.family_id = \(family).id), '')" : ""
        return "MAX(\(family).created_at, COALESCE(\(family).last_sync_date, '')\(repaired))"
    }
}
