/// SQL conditions on `families` that audit and doctor share, so both judge a family the same way.
package enum FamilyConditions {
    /// No parent_admin membership that is active or invited (an invited admin is a complete
    /// family waiting for that person to sign in).
    package static func withoutParentAdmin(_ family: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM memberships m WHERE m.family_id = \(family).id AND m.role = 'parent_admin'
                    AND m.status IN ('active', 'invited'))
        """
    }

    /// Since when a pending family has waited: its creation, its last upload, or the audit repair
    /// that gave it a new code, whichever is latest (ISO 8601 text compares as time).
    package static func pendingSince(_ family: String, hasRepairTable: Bool) -> String {
        let repaired = hasRepairTable ? ", COALESCE((SELECT MAX(r.at) FROM code_repairs r WHERE r.family_id = \(family).id), '')" : ""
        return "MAX(\(family).created_at, COALESCE(\(family).last_sync_date, '')\(repaired))"
    }
}
