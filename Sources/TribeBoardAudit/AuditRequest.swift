import Foundation
import TribeBoardCloudKit
import TribeBoardDomain

/// What an audit compares, and how much of it to list.
package struct AuditRequest: Sendable {
    package var storePath: String
    /// nil: the local store alone.
    package var remote: RemoteSource?
    /// Families pending sync for longer than this are reported.
    package var staleAfter: TimeInterval = 24 * 3600
    /// List every remote-only family, stale pending family and legacy record, not a sample.
    package var listAll = false
    /// Families shown in an aggregated finding's sample.
    package var sampleSize = 10
    /// Codes appear masked (`AB****`) unless asked for: audit reports get pasted into tickets.
    package var showCodes = false
    package var repair = RepairMode.none

    package enum RepairMode: Sendable, Equatable {
        case none
        /// List what a repair would change.
        case propose
        /// Change it: new codes in the store, new QR codes and `repairs.csv` in the folder.
        case apply(outputDirectory: String)
    }

    package init(storePath: String, remote: RemoteSource? = nil) {
        self.storePath = storePath
        self.remote = remote
    }

    var sampleLimit: Int? { listAll ? nil : sampleSize }

    /// The live remote's flags, for advice that reaches CloudKit (none for a snapshot).
    var adviceFlags: [String] {
        guard case .live(let client, _)? = remote else { return [] }
        return client.configuration.adviceFlags
    }

    var isLive: Bool {
        if case .live? = remote { return true }
        return false
    }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}
