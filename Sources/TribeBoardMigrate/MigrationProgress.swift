import Foundation
import TribeBoardSupport

/// How far a migration is, for a progress bar: records handled of the phase's total. Each phase
/// counts its own records (the reading phase its record types), so the total changes between
/// phases: `label` names the phase and its place among this run's phases ("copying 3/4").
package struct MigrationProgress: Sendable {
    package enum Phase: String, Sendable, CaseIterable {
        case reading, planning, copying, verifying, deleting
    }
    package let phase: Phase
    package let processed: Int
    package let total: Int
    package let problems: Int
    package let elapsed: Duration
    /// This run's phases in order: a plan reads and plans; --apply copies and verifies too, and
    /// --delete-source deletes last.
    package let phases: [Phase]

    /// 1-based place of the phase among this run's.
    package var step: Int { (phases.firstIndex(of: phase) ?? 0) + 1 }
    package var label: String { "\(phase.rawValue) \(step)/\(phases.count)" }

    /// The display's terms: records handled of the phase's, problems as failures, the phase named.
    package var work: WorkProgress {
        WorkProgress(
            processed: processed, total: total, failed: problems, elapsed: elapsed, phase: label)
    }

    static func phases(of request: MigrationRequest) -> [Phase] {
        [.reading, .planning] + (request.apply ? [.copying, .verifying] : [])
            + (request.apply && request.deleteSource && request.mode == .legacyTypes
                ? [.deleting] : [])
    }
}
