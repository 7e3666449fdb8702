import Foundation
import GRDB

/// Answers, without writing, what a real run would do with each row.
struct DryRunPlanner {
    let store: TribeBoardStore?
    let reservations: RowTracker?

    func plan(_ entry: BatchEntry) throws -> ProvisionRowResult {
        switch entry {
        case .invalid(let line, let externalId, let name, _, let error):
            return ProvisionRowResult(line: line, externalId: externalId, familyId: nil, familyName: name, code: nil,
                                      status: .failed, error: error.localizedDescription, needsQRCode: false)
        case .valid(let row):
            if let existing = try store?.writer.read({ db in try FamilyLookups(db).family(importKey: row.importKey) }) {
                return ProvisionRowResult(line: row.line, externalId: row.externalId, familyId: existing.id,
                                          familyName: existing.name, code: existing.code, status: .existing,
                                          error: nil, needsQRCode: false)
            }
            var error: String?
            if let code = row.preassignedCode {
                if let holder = try store?.writer.read({ db in try FamilyLookups(db).family(code: code.value) }) {
                    error = "code: is already used by family \(holder.id) (\"\(holder.name)\")"
                } else if let line = try reservations?.reservedLine(for: code.value), line < row.line {
                    error = "code: is also given on line \(line)"
                }
            }
            return ProvisionRowResult(line: row.line, externalId: row.externalId, familyId: nil, familyName: row.familyName,
                                      code: row.preassignedCode?.value, status: error == nil ? .created : .failed,
                                      error: error, needsQRCode: false)
        }
    }
}
