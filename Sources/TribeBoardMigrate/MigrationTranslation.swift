import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote

/// How a source record becomes its destination copy: the same record under the same name for a
/// container copy; for legacy types the current type under a name derived from the old one (record
/// names are unique in a zone whatever the type), with references renamed the same way.
struct MigrationTranslation: Sendable {
    let mode: MigrationMode
    /// Names of the records being migrated: a reference to one of them follows its rename.
    let sourceNames: Set<String>
    /// Legacy types: each source name's copy name (`LegacyCopyName`: the audit derives it too),
    /// derived once, before anything is planned, so a name that cannot be derived stops the run.
    private let copyNames: [String: String]

    init(mode: MigrationMode, sourceNames: Set<String>) throws(LegacyCopyNameError) {
        self.mode = mode
        self.sourceNames = sourceNames
        copyNames =
            mode == .container
            ? [:]
            : Dictionary(
                uniqueKeysWithValues: try sourceNames.map { name throws(LegacyCopyNameError) in
                    (name, try LegacyCopyName.of(name))
                })
    }

    /// Only ever asked for a source name (a record's, or a reference's that `sourceNames` holds).
    func destinationName(of sourceName: String) -> String {
        mode == .container ? sourceName : copyNames[sourceName] ?? sourceName
    }

    func destinationType(of record: CloudKitRecord, kind: MigratedKind) -> String {
        mode == .container ? (record.recordType ?? kind.currentType) : kind.currentType
    }

    /// The record to write: fields as they are (a field this toolkit does not know is still the
    /// app's data), references renamed, the code replaced for a re-coded family.
    func copy(of record: CloudKitRecord, kind: MigratedKind, code: String?) -> CloudKitRecord {
        var fields = record.fields ?? [:]
        for (name, field) in fields where field.type == "REFERENCE" {
            guard var target = field.value.object, let referenced = target["recordName"]?.string,
                  sourceNames.contains(referenced) else { continue }
            target["recordName"] = .string(destinationName(of: referenced))
            fields[name] = CloudKitRecord.Field(value: .object(target), type: field.type)
        }
        if let code { fields[FamilyField.code.rawValue] = .string(code) }
        return CloudKitRecord(
            recordName: destinationName(of: record.recordName),
            recordType: destinationType(of: record, kind: kind),
            fields: fields)
    }

    /// Two records hold the same data: type and every field (system fields such as change tags and
    /// creation stamps differ between a record and its copy by nature).
    static func same(_ expected: CloudKitRecord, _ found: CloudKitRecord) -> Bool {
        expected.recordType == found.recordType
            && normalized(expected.fields) == normalized(found.fields)
    }

    /// The fields in which two records differ, for the report.
    static func differingFields(_ expected: CloudKitRecord, _ found: CloudKitRecord) -> [String] {
        let left = normalized(expected.fields), right = normalized(found.fields)
        var names = Set(left.keys).union(right.keys).filter { left[$0] != right[$0] }.sorted()
        if expected.recordType != found.recordType { names.insert("recordType", at: 0) }
        return names
    }

    /// A reference's zone (written or not, it is the default zone) and a missing type do not make
    /// two values different.
    private static func normalized(_ fields: [String: CloudKitRecord.Field]?) -> [String: JSONValue]
    {
        var result: [String: JSONValue] = [:]
        for (name, field) in fields ?? [:] {
            if field.type == "REFERENCE", let object = field.value.object {
                result[name] = .object([
                    "recordName": object["recordName"] ?? .null, "action": object["action"] ?? .null
                ])
            } else {
                result[name] = field.value
            }
        }
        return result
    }
}
