import Foundation
import TribeBoardCSV
import TribeBoardStore
import TribeBoardDomain

/// Answers, without writing, what a real run would do with each row.
struct DryRunPlanner {
    let store: ReadOnlyStore?
    let reservations: RowTracker?

    func plan(_ entry: BatchEntry) throws -> ProvisionRowResult {
        switch entry {
        case .invalid(let line, let externalId, let name, _, let error):
            return ProvisionRowResult(
                line: line, externalId: externalId, familyId: nil, familyName: name, code: nil,
                status: .failed, error: error.localizedDescription, needsQRCode: false)
        case .valid(let row) where row.skipped:
            return .skipped(row)
        case .valid(let row):
            guard let store else { return try plan(row, lookups: nil) }
            return try store.withFamilyLookups { try plan(row, lookups: $0) }
        }
    }

    private func plan(_ row: ValidatedRow, lookups: FamilyLookups?) throws -> ProvisionRowResult {
        if let lookups, let existing = try lookups.family(importKey: row.importKey) {
            let conflict = try PreassignedCode.conflict(row, existing: existing, lookups: lookups)
            return ProvisionRowResult(
                line: row.line, externalId: row.externalId, familyId: existing.id,
                familyName: existing.name, code: existing.code,
                status: conflict == nil ? .existing : .failed,
                error: conflict?.localizedDescription, needsQRCode: false)
        }
        let problem = try PreassignedCode.problem(row, lookups: lookups, reservations: reservations)
        var result = ProvisionRowResult(
            line: row.line, externalId: row.externalId, familyId: nil, familyName: row.familyName,
            code: row.preassignedCode?.value, status: problem == nil ? .created : .failed,
            error: problem?.localizedDescription, needsQRCode: false)
        result.possibleDuplicate = row.possibleDuplicate
        return result
    }
}
