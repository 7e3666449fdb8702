import Foundation

/// The record tables resync uploads, in the order references need: families first.
package enum SyncTable: String, CaseIterable, Sendable, Encodable {
    case families
    case userProfiles = "user_profiles"
    case memberships
}
