import Foundation
import TribeBoardStore

/// A migration run's checkpoint, kept by the store (`TribeBoardStore.migrationCheckpoint`), in the
/// migration's terms: `pending` before a batch goes to CloudKit (with the new code chosen for a
/// re-coded family, so a resumed run writes the same one), `copied` once the destination holds it
/// and the store knows it, `deleted` once the legacy source is gone.
struct MigrationCheckpoint {
    typealias Status = TribeBoardStore.MigrationCheckpointEntry.Status

    struct Entry: Equatable {
        var sourceName: String
        var kind: MigratedKind
        var destinationName: String
        var newCode: String?
        var status: Status
        /// For a re-coded family: the family that kept its old code (from `code_repairs`).
        var keptBy: String?
        /// Why `--delete-source` leaves this legacy source in CloudKit on purpose.
        var kept: String?

        var stored: TribeBoardStore.MigrationCheckpointEntry {
            .init(
                sourceName: sourceName, kind: kind.rawValue, destinationName: destinationName,
                newCode: newCode, status: status, keptBy: keptBy,
                kept: kept)
        }
    }

    let store: TribeBoardStore
    let runKey: String

    /// What earlier runs of the same migration recorded, by source name (a kind this toolkit does
    /// not know is left out).
    static func load(from store: some StoreReading, runKey: String) throws(StoreError) -> [String:
        Entry]
    {
        try store.migrationCheckpoint(runKey: runKey).compactMapValues { entry in
            MigratedKind(rawValue: entry.kind).map {
                Entry(
                    sourceName: entry.sourceName, kind: $0, destinationName: entry.destinationName,
                    newCode: entry.newCode,
                    status: entry.status, keptBy: entry.keptBy, kept: entry.kept)
            }
        }
    }

    func record(_ entries: [Entry]) throws(StoreError) {
        try store.recordMigrationCheckpoint(entries.map(\.stored), runKey: runKey)
    }
}
