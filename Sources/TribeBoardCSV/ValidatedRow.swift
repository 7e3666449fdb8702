import Foundation
import TribeBoardDomain

/// A CSV row that passed validation, ready to be written.
package struct ValidatedRow: Sendable, Equatable {
    package let line: Int
    /// What makes a re-run recognise the row: `ext:` + external id, or `row:` + its normalized
    /// content.
    package let importKey: String
    package let externalId: String?
    package let familyName: String
    package let admin: AdminSpec?
    package let preassignedCode: FamilyCode?
    /// Another family with the same name and admin, found before the row is written.
    package var possibleDuplicate: PossibleDuplicate? = nil
    /// Left out as a possible duplicate (`--skip-possible-duplicates`): nothing is written for it.
    package var skipped: Bool { possibleDuplicate?.skipped == true }
}

/// One row of input on its way through a batch: valid, or already failed.
package enum BatchEntry: Sendable {
    case valid(ValidatedRow)
    case invalid(
        line: Int, externalId: String?, familyName: String, importKey: String?, error: RowError)
}
