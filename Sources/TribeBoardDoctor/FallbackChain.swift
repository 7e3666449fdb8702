import Foundation

/// The seed's fallback chain (CloudKit, then local-only, then in memory) as the toolkit lives it:
/// with CloudKit, local-only (and why), or a store it could only read, or none at all.
package struct FallbackAssessment: Sendable, Codable, Equatable {
    package enum Mode: String, Sendable, Codable {
        /// Codes checked remotely, records uploaded by resync.
        case cloudKit
        /// Codes checked in the local store only; records wait for sync.
        case localOnly
        /// The store can be read (audit, doctor, resync --list) but provision and resync cannot
        /// write.
        case readOnly
        /// No usable store: nothing the toolkit did would be kept.
        case inMemory
    }

    /// Why the toolkit is not on CloudKit, for scripts: `noKey`, `remoteDown`, `authFailure`,
    /// `storeUnusable`...
    package enum Reason: String, Sendable, Codable {
        case none, noKey, remoteDown, authFailure, storeReadOnly, storeUnusable
    }

    package let mode: Mode
    package let reason: Reason
    package let explanation: String
}

enum FallbackChain {
    static func assess(store: StoreState, remote: RemoteState) -> (FallbackAssessment, DoctorCheck)
    {
        let assessment = assessment(store: store, remote: remote)
        let status: DoctorSeverity
        let action: String?
        switch (assessment.mode, assessment.reason) {
        case (.cloudKit, _):
            (status, action) = (.ok, nil)
        case (.localOnly, .noKey), (.localOnly, .remoteDown):
            (status, action) = (.warning, "records wait in the store; resync uploads them once CloudKit is configured and reachable")
        case (.localOnly, _):
            (status, action) = (.failure, "fix the remote configuration (see the remote checks): nothing reaches the app's users until then")
        case (.readOnly, _):
            (status, action) = (.failure, "fix the store's permissions (see the store checks)")
        case (.inMemory, _):
            (status, action) = (
                .failure, "fix or replace the store (see the store checks) before any provision run"
            )
        }
        let check = DoctorCheck(
            .fallbackMode, .fallback, status,
            checked: "How the toolkit would run now (CloudKit, local-only, read-only, in memory)",
            found: "\(assessment.mode.rawValue): \(assessment.explanation)", action: action)
        return (assessment, check)
    }

    private static func assessment(store: StoreState, remote: RemoteState) -> FallbackAssessment {
        switch store {
        case .unusable(let reason):
            return FallbackAssessment(
                mode: .inMemory, reason: .storeUnusable,
                explanation: "\(reason); like the app's last resort, only an in-memory "
                    + "store would remain and nothing would be kept")
        case .missing(let folderWritable) where !folderWritable:
            return FallbackAssessment(
                mode: .inMemory, reason: .storeUnusable,
                explanation:
                    "the store does not exist and its folder is not writable: nothing would be kept"
            )
        case .readOnly(_, let reason):
            return FallbackAssessment(mode: .readOnly, reason: .storeReadOnly,
                                      explanation: "the store can be read but not written (\(reason)): provision and resync would fail")
        case .missing, .writable:
            break
        }
        let newStore: String
        if case .missing = store {
            newStore = " (provision would create a new, empty store)"
        } else {
            newStore = ""
        }
        switch remote {
        case .accepted:
            return FallbackAssessment(
                mode: .cloudKit, reason: .none,
                explanation:
                    "CloudKit accepts the key: codes are checked remotely and resync uploads"
                    + newStore)
        case .notConfigured:
            return FallbackAssessment(
                mode: .localOnly, reason: .noKey,
                explanation: "no key configured: codes are checked locally, records wait for sync"
                    + newStore)
        case .unreachable(let why), .busy(let why):
            return FallbackAssessment(
                mode: .localOnly, reason: .remoteDown,
                explanation: "CloudKit cannot be used now (\(why)): codes are checked "
                    + "locally, records wait for sync" + newStore)
        case .rejected(let why):
            return FallbackAssessment(
                mode: .localOnly, reason: .authFailure,
                explanation: "CloudKit refuses the configuration (\(why)): remote commands exit 78"
                    + newStore)
        case .misconfigured(let why):
            // Nothing can be signed or sent: for the toolkit, the same as a refused key.
            return FallbackAssessment(
                mode: .localOnly, reason: .authFailure,
                explanation:
                    "the CloudKit settings cannot be used (\(why)): remote commands exit 78"
                    + newStore)
        }
    }
}
