import Foundation
import GRDB
import TribeBoardDomain
import TribeBoardSupport

/// creation_log writes off the bulk path (failed rows, uploads); successful creations go
/// through `ProvisioningBatch`'s bound statement.
package enum CreationLog {
    package struct Entry {
        var familyID: FamilyID?
        var importKey: String? = nil
        var line: Int? = nil
        var state: FamilyCreationState
        var error: String? = nil

        package init(familyID: FamilyID?, importKey: String? = nil, line: Int? = nil, state: FamilyCreationState, error: String? = nil) {
            self.familyID = familyID
            self.importKey = importKey
            self.line = line
            self.state = state
            self.error = error
        }
    }

    /// Appends one row per state in `states`, then a `failed` row when `failure` is given.
    package static func append(_ db: Database, familyID: FamilyID?, importKey: String?, line: Int?,
                       states: [FamilyCreationState], failure: String?, at timestamp: Timestamp) throws {
        var entries = states.map { Entry(familyID: familyID, importKey: importKey, line: line, state: $0) }
        if let failure { entries.append(Entry(familyID: familyID, importKey: importKey, line: line, state: .failed, error: failure)) }
        try append(db, entries, at: timestamp)
    }

    /// All entries in multi-row INSERTs (a page of uploads is 400 rows).
    package static func append(_ db: Database, _ entries: [Entry], at timestamp: Timestamp) throws {
        let at = timestamp.text
        for chunk in entries.chunked(500) {
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            var arguments = StatementArguments()
            for entry in chunk {
                arguments += [entry.familyID, entry.importKey, entry.line, entry.state.rawValue, entry.state.progress, entry.error, at]
            }
            try db.execute(sql: "INSERT INTO creation_log (family_id, import_key, source_line, state, progress, error, at) VALUES \(rows)",
                           arguments: arguments)
        }
    }
}
