import Foundation

/// The app's membership roles, by their raw values on the wire and in the store.
package enum MembershipRole: String, Sendable, Codable, CaseIterable {
    case parentAdmin = "parent_admin"
    case adult
    case kid
    case visitor
}

/// Removal is a soft delete: a removed membership stays, with this status.
package enum MembershipStatus: String, Sendable, Codable, CaseIterable {
    case active
    case invited
    case removed
}


/// The parent admin a CSV row asks for. Without an Apple user id hash the person has not signed in
/// yet, so the membership is `invited` and the profile carries no hash.
package struct AdminSpec: Sendable, Equatable {
    package let displayName: String
    package let appleUserIdHash: String?

    package init(displayName: String, appleUserIdHash: String?) {
        self.displayName = displayName
        self.appleUserIdHash = appleUserIdHash
    }

    package var membershipStatus: MembershipStatus { appleUserIdHash == nil ? .invited : .active }
}

/// Where a family stands with its admin, as the app judges it: the app counts only an active
/// `parent_admin` (`Models/Family.swift`). An admin provisioned without an Apple user id hash is
/// kept in the store until they join through the join kit, so until then the family has no
/// admin in CloudKit, and that is expected, not a fault.
package enum AdminState: String, Sendable, Codable, CaseIterable {
    /// An active `parent_admin`: the app's "has an admin".
    case active
    /// No active admin, but one invited without a hash waits in the store to take the seat.
    case awaitingInvitedAdmin = "awaiting-invited-admin"
    /// Neither: the app reads a partially created family.
    case none

    /// How an operator reads it, after the family's name or id.
    package var summary: String {
        switch self {
        case .active: return "has an active parent admin"
        case .awaitingInvitedAdmin:
            return "awaits its invited admin: no admin in the app until that person joins with the code"
        case .none: return "has no parent admin, active or awaiting"
        }
    }
}
