import Foundation
import TribeBoardDomain

/// What an audit compares, and how much of it to list.
public struct AuditRequest: Sendable {
    public var storePath: String
    /// nil: the local store alone.
    public var remote: RemoteSource?
    /// Families pending sync for longer than this are reported.
    public var staleAfter: TimeInterval = 24 * 3600
    /// List every remote-only family, stale pending family and legacy record, not a sample.
    public var listAll = false
    /// Families shown in an aggregated finding's sample.
    public var sampleSize = 10
    /// Codes appear masked (`AB****`) unless asked for: audit reports get pasted into tickets.
    public var showCodes = false
    public var repair = RepairMode.none

    public enum RepairMode: Sendable, Equatable {
        case none
        /// List what a repair would change.
        case propose
        /// Change it: new codes in the store, new QR codes and `repairs.csv` in the folder.
        case apply(outputDirectory: String)
    }

    public init(storePath: String, remote: RemoteSource? = nil) {
        self.storePath = storePath
        self.remote = remote
    }

    var sampleLimit: Int? { listAll ? nil : sampleSize }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}
