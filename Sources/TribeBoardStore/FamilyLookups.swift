import Foundation
import GRDB
import TribeBoardDomain

/// Dates as the store keeps them: `Timestamp`'s text (ISO 8601 UTC with milliseconds, sortable).
package enum StoreTimestamp {
    package static func format(_ date: Date) -> String { Timestamp(date).text }
}

package struct FoundFamily {
    package let id: String
    package let name: String
    package let code: String
}

/// Families by import key and by code: what a run (or a dry run) asks before it creates anything.
package struct FamilyLookups {
    private let byImportKey: BoundStatement
    private let byCode: BoundStatement

    package init(_ db: Database) throws {
        byImportKey = try BoundStatement(db, "SELECT id, name, code FROM families WHERE import_key = ?", table: "families")
        byCode = try BoundStatement(db, "SELECT id, name, code FROM families WHERE code = ?", table: "families")
    }

    package func family(importKey: String) throws -> FoundFamily? {
        try found(byImportKey.firstRow([.text(importKey)], columns: 3))
    }

    package func family(code: String) throws -> FoundFamily? {
        try found(byCode.firstRow([.text(code)], columns: 3))
    }

    private func found(_ row: [String]?) -> FoundFamily? {
        row.map { FoundFamily(id: $0[0], name: $0[1], code: $0[2]) }
    }
}
