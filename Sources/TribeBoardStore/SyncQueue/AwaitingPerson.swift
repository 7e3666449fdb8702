/// Rows that stay in the store until their person signs in: a profile invited without an Apple
/// user id hash, and that profile's memberships. The app's `UserProfile` decoder throws without a
/// hash, so such a profile is never uploaded; the invited admin joins through the join kit's
/// `activateInvitedAdmin` instead (docs/code-claims.md), which writes a profile with their hash
/// and takes the family's admin seat.
enum AwaitingPerson {
    /// A condition on the row `t` of `table`: true for the rows held back; nil for families.
    static func condition(_ table: SyncTable) -> String? {
        switch table {
        case .families: return nil
        case .userProfiles: return "t.apple_user_id_hash IS NULL"
        case .memberships:
            return "EXISTS (SELECT 1 FROM user_profiles u WHERE u.id = t.user_id AND u.apple_user_id_hash IS NULL)"
        }
    }

    /// `AND NOT (…)` for a query over `table` aliased `t`, or nothing.
    static func excluded(_ table: SyncTable) -> String {
        condition(table).map { "AND NOT (\($0))" } ?? ""
    }
}
