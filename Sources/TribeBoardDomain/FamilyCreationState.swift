import Foundation

/// The app's creation state machine, recorded one row per transition in `creation_log` so that
/// support staff can see where a creation stopped.
package enum FamilyCreationState: String, Sendable, Codable, CaseIterable {
    case idle
    case validating
    case generatingCode
    case creatingLocally
    case syncingToCloudKit
    case completed
    case failed

    /// The progress the app shows for each state.
    package var progress: Double {
        switch self {
        case .idle: return 0
        case .validating: return 0.2
        case .generatingCode: return 0.4
        case .creatingLocally: return 0.6
        case .syncingToCloudKit: return 0.8
        case .completed: return 1
        case .failed: return 0
        }
    }
}
