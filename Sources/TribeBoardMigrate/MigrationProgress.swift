import Foundation
import TribeBoardProvisioning

/// How far a migration is, for a progress bar: records handled of the phase's total.
package struct MigrationProgress: Sendable {
    package enum Phase: String, Sendable { case reading, planning, copying, verifying, deleting }
    package let phase: Phase
    package let processed: Int
    package let total: Int
    package let problems: Int
    package let elapsed: Duration
}

extension ProvisionProgress {
    /// The progress display speaks in provision's terms: processed, total, failed.
    package init(_ migration: MigrationProgress) {
        self.init(processed: migration.processed, total: migration.total, created: migration.processed, existing: 0,
                  failed: migration.problems, elapsed: migration.elapsed)
    }
}
