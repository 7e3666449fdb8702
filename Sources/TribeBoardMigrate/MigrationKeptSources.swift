import Foundation

/// The legacy records `--delete-source` leaves where they are: those `--keep-source` names (a
/// record the migration cannot copy, such as an invalid one an app user still owns), and the
/// family and profile each kept membership references, since deleting either would delete the
/// membership with it (the references are DELETE_SELF).
enum MigrationKeptSources {
    /// Why each kept record is kept, by source name; the names no read record has.
    static func resolve(_ named: Set<String>, in items: [MigrationItem]) -> (kept: [String: String], unknown: [String]) {
        let known = Set(items.map(\.sourceName))
        let unknown = named.subtracting(known).sorted()
        var kept: [String: String] = [:]
        for name in named where known.contains(name) { kept[name] = "--keep-source" }
        for item in items where item.kind == .membership && named.contains(item.sourceName) {
            for field in ["family", "user"] {
                guard let target = MigrationStoreImport.reference(item.source, field), known.contains(target), kept[target] == nil else { continue }
                kept[target] = "referenced by the kept membership \(item.sourceName) (deleting it would delete the membership too)"
            }
        }
        return (kept, unknown)
    }

    /// What to do about a record that blocks the deletion: keep it, or delete it by hand.
    static func advice(for item: MigrationItem) -> String {
        let with = item.kind == .membership ? ", with the family and profile it references" : ""
        return "either keep it: run again with --keep-source \(item.sourceName) (it stays in CloudKit as it is\(with), and the others are deleted), "
            + "or delete it in the CloudKit Console (public database, record type \(item.source.recordType ?? "?"), record name \(item.sourceName)), "
            + "then run again"
    }
}
