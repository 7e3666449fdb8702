import Foundation
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore

/// The rules for a code given in the CSV: it is kept, or its row fails; it is never replaced.
enum PreassignedCode {
    /// Why `row`'s preassigned code cannot be used, or nil when it can (or there is none).
    /// Without `lookups` (a dry run with no store yet) only the file itself is checked.
    static func problem(_ row: ValidatedRow, lookups: FamilyLookups?, reservations: RowTracker?)
        throws -> RowError?
    {
        guard let code = row.preassignedCode else { return nil }
        if let holder = try lookups?.family(code: code.value) {
            return RowError(
                column: FamilyCSVColumn.code.rawValue,
                "is already used by family \(holder.id) (\"\(holder.name)\")")
        }
        if let line = try reservations?.reservedLine(for: code.value), line < row.line {
            return RowError(column: FamilyCSVColumn.code.rawValue, "is also given on line \(line)")
        }
        return nil
    }

    /// A re-run of a provisioned row may not ask for another code than the one its family has,
    /// unless the family held that code before a recode or repair changed it: the row then
    /// describes the family as it was, and it stays `existing` with the code it has now.
    static func conflict(_ row: ValidatedRow, existing: FoundFamily, lookups: FamilyLookups) throws
        -> RowError?
    {
        guard let code = row.preassignedCode, code.value != existing.code,
              try !lookups.family(existing.id, heldCode: code.value) else { return nil }
        return RowError(column: FamilyCSVColumn.code.rawValue,
                        "differs from the code of family \(existing.id), provisioned from this row earlier; a family's code is never replaced")
    }
}
