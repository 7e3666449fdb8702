import Foundation
import TribeBoardRemote

/// The legacy records `--delete-source` leaves where they are: those `--keep-source` names (a
/// record the migration cannot copy, such as an invalid one an app user still owns), and the
/// family and profile each kept membership references, since deleting either would delete the
/// membership with it (the references are DELETE_SELF).
enum MigrationKeptSources {
    /// Why each kept record is kept, by source name; the names no read record has.
    static func resolve(_ named: Set<String>, in items: [MigrationItem]) -> (
        kept: [String: String], unknown: [String]
    ) {
        let known = Set(items.map(\.sourceName))
        let unknown = named.subtracting(known).sorted()
        var kept: [String: String] = [:]
        for name in named where known.contains(name) { kept[name] = "--keep-source" }
        for item in items where item.kind == .membership && named.contains(item.sourceName) {
            for field in [MembershipField.family, .user] {
                guard let target = item.source.reference(field), known.contains(target),
                    kept[target] == nil
                else { continue }
                kept[target] =
                    "referenced by the kept membership \(item.sourceName) (deleting it would delete the membership too)"
            }
        }
        return (kept, unknown)
    }

    /// What to do about a record that blocks the deletion: keep it, or delete it by hand; never
    /// delete a family that lost no conflict (the older family keeps its code: the newer holder
    /// is what changes, as its reason says).
    static func advice(for item: MigrationItem) -> String {
        let with = item.kind == .membership ? ", with the family and profile it references" : ""
        let keep = "run again with --keep-source \(item.sourceName) (it stays in CloudKit as it is\(with), and the others are deleted)"
        if item.outcome == .codeConflict {
            return "it is the older holder of its code, which it keeps: free the code as its reason says, then run again; "
                + "or \(keep)"
        }
        return "either keep it: \(keep), "
            + "or delete it in the CloudKit Console (public database, record type \(item.source.recordType ?? "?"), record name \(item.sourceName)), "
            + "then run again"
    }

    /// Before a kind's sources are deleted: the records a membership that stays (kept, refused
    /// or not reached) references stay too, so that no record is left pointing at a deleted one.
    static func keepReferenced(by items: inout [MigrationItem]) {
        let known = Set(items.map(\.sourceName))
        var reasons: [String: String] = [:]
        for item in items where item.kind == .membership && !item.deleted {
            for field in [MembershipField.family, .user] {
                guard let target = item.source.reference(field), known.contains(target) else {
                    continue
                }
                reasons[target] =
                    reasons[target]
                    ?? "referenced by the membership \(item.sourceName), which stays "
                    + "(deleting it would leave the membership pointing at nothing)"
            }
        }
        for index in items.indices where items[index].kept == nil && !items[index].deleted {
            items[index].kept = reasons[items[index].sourceName]
        }
    }
}
