import Foundation
import TribeBoardDomain
import TribeBoardSupport

/// Turns a CSV record into a row ready for the store, or into every problem it has, each naming
/// its column. Here, below provisioning, because `sheets --from-import` finds an import file's
/// families by the same import keys provision gave them.
package struct RowParser {
    package init() {}

    package func parse(_ record: FamilyCSVRecord) -> BatchEntry {
        if let malformed = record.malformed {
            return .invalid(
                line: record.line, externalId: nil, familyName: "", importKey: nil, error: malformed
            )
        }
        let externalId = trimmed(record.fields[.externalId])
        if let externalId,
            let control = externalId.unicodeScalars.first(where: {
                CharacterSet.controlCharacters.contains($0)
            })
        {
            return .invalid(
                line: record.line, externalId: nil, familyName: record.fields[.familyName] ?? "",
                importKey: nil,
                error: RowError(
                    column: FamilyCSVColumn.externalId.rawValue,
                    "contains \(FieldRules.describe(control))"))
        }
        let rawName = record.fields[.familyName] ?? ""
        if let mismatch = record.fieldCountMismatch {
            return .invalid(
                line: record.line, externalId: externalId, familyName: rawName, importKey: nil,
                error: RowError(
                    column: nil,
                    "has \(mismatch.found) fields but the header has \(mismatch.expected)"))
        }
        var problems: [RowError] = []
        func check<T>(_ body: () throws(RowError) -> T) -> T? {
            do { return try body() } catch { problems.append(error); return nil }
        }
        let name = check { () throws(RowError) in
            try FieldRules.familyName(rawName, column: FamilyCSVColumn.familyName.rawValue)
        }
        let admin = check { () throws(RowError) in try parseAdmin(record) } ?? nil
        let code =
            check { () throws(RowError) -> FamilyCode? in
                guard let raw = trimmed(record.fields[.code]) else { return nil }
                do { return try FamilyCode(validating: raw) } catch {
                    throw RowError(
                        column: FamilyCSVColumn.code.rawValue, error.localizedDescription)
                }
            } ?? nil

        let importKey = Self.importKey(
            externalId: externalId, name: name ?? rawName, admin: admin, code: code)
        guard let name, problems.isEmpty else {
            return .invalid(
                line: record.line, externalId: externalId, familyName: rawName,
                importKey: importKey,
                error: Self.combine(problems))
        }
        return .valid(ValidatedRow(line: record.line, importKey: importKey, externalId: externalId,
                                   familyName: name, admin: admin, preassignedCode: code))
    }

    private func parseAdmin(_ record: FamilyCSVRecord) throws(RowError) -> AdminSpec? {
        let displayName = trimmed(record.fields[.adminDisplayName])
        let hash = trimmed(record.fields[.adminAppleUserIdHash])
        guard let displayName else {
            if hash != nil {
                throw RowError(
                    column: FamilyCSVColumn.adminDisplayName.rawValue,
                    "is required when admin_apple_user_id_hash is given")
            }
            return nil
        }
        let name = try FieldRules.displayName(
            displayName, column: FamilyCSVColumn.adminDisplayName.rawValue)
        let validHash = try hash.map { (value) throws(RowError) in
            try FieldRules.appleUserIdHash(
                value, column: FamilyCSVColumn.adminAppleUserIdHash.rawValue)
        }
        return AdminSpec(displayName: name, appleUserIdHash: validHash)
    }

    private func trimmed(_ value: String?) -> String? {
        guard let value = value?.trimmed, !value.isEmpty else { return nil }
        return value
    }

    /// The operator's external id when there is one; otherwise the row's normalized content, so
    /// that re-running a file without ids still recognises its rows.
    static func importKey(externalId: String?, name: String, admin: AdminSpec?, code: FamilyCode?)
        -> String
    {
        if let externalId { return ImportKey.external(externalId) }
        return ImportKey.content([
            name, admin?.displayName ?? "", admin?.appleUserIdHash ?? "", code?.value ?? ""
        ])
    }

    static func combine(_ problems: [RowError]) -> RowError {
        if problems.count == 1 { return problems[0] }
        return RowError(
            column: nil, problems.map { $0.localizedDescription }.joined(separator: "; "))
    }
}
