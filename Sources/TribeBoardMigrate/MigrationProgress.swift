import Foundation
import TribeBoardProvisioning

/// How far a migration is, for a progress bar: records handled of the phase's total.
public struct MigrationProgress: Sendable {
    public enum Phase: String, Sendable { case reading, planning, copying, verifying, deleting }
    public let phase: Phase
    public let processed: Int
    public let total: Int
    public let problems: Int
    public let elapsed: Duration
}

extension ProvisionProgress {
    /// The progress display speaks in provision's terms: processed, total, failed.
    public init(_ migration: MigrationProgress) {
        self.init(processed: migration.processed, total: migration.total, created: migration.processed, existing: 0,
                  failed: migration.problems, elapsed: migration.elapsed)
    }
}
