import Foundation
import GRDB
import TribeBoardDomain

package struct FoundFamily {
    package let id: FamilyID
    package let name: String
    package let code: String
}

/// Families by import key and by code: what a run (or a dry run) asks before it creates anything.
package struct FamilyLookups {
    private let byImportKey: BoundStatement
    private let byCode: BoundStatement
    /// nil in a store older than the code history (opened read-only by a dry run, unmigrated).
    private let pastCode: BoundStatement?

    package init(_ db: Database) throws {
        byImportKey = try BoundStatement(db, "SELECT id, name, code FROM families WHERE import_key = ?", table: "families")
        byCode = try BoundStatement(db, "SELECT id, name, code FROM families WHERE code = ?", table: "families")
        pastCode = try db.tableExists("code_repairs")
            ? BoundStatement(db, "SELECT family_id FROM code_repairs WHERE family_id = ? AND old_code = ?", table: "code_repairs")
            : nil
    }

    /// Whether `familyID` held `code` before a recode or a repair changed it: a CSV that still
    /// gives the old code describes the same family, re-coded since.
    package func family(_ familyID: FamilyID, heldCode code: String) throws -> Bool {
        try pastCode?.firstRow([.text(familyID.rawValue), .text(code)], columns: 1) != nil
    }

    package func family(importKey: String) throws -> FoundFamily? {
        try found(byImportKey.firstRow([.text(importKey)], columns: 3))
    }

    package func family(code: String) throws -> FoundFamily? {
        try found(byCode.firstRow([.text(code)], columns: 3))
    }

    private func found(_ row: [String]?) -> FoundFamily? {
        row.map { FoundFamily(id: FamilyID(rawValue: $0[0]), name: $0[1], code: $0[2]) }
    }
}
