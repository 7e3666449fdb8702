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
