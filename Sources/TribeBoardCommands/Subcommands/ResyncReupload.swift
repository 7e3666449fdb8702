import Foundation
import TribeBoardDomain
import TribeBoardStore

/// `resync --reupload ID`: a family the store says is uploaded but CloudKit no longer has (deleted
/// in the Console; `doctor family ID` and the audit say so) goes up again with the next run, with
/// its memberships and their profiles, its code claimed again. Nothing is uploaded by this call.
extension ResyncCommand {
    func reuploadFamilies(_ context: CommandContext) throws {
        // Ids as pasted from a report or a message: trimmed and upper-cased as every command
        // that names a family takes them.
        let ids = reupload.map { FamilyQuery($0).recordID }
        let marked: [String]
        do throws(StoreError) {
            try TribeBoardStore.identify(at: global.store)
            marked = try TribeBoardStore.open(at: global.store)
                .markForReupload(familyIDs: ids.map(FamilyID.init(rawValue:))).map(\.rawValue)
        } catch {
            throw context.fail(error, Self.exits)
        }
        let result = ResyncReuploadReport(marked: marked, unknown: ids.filter { !marked.contains($0) })
        // Nothing marked: the error below is the whole answer, not a "Marked 0 families" beside it.
        try context.emit(result) { report in
            guard !report.marked.isEmpty else { return "" }
            let families = report.marked.count == 1 ? "1 family" : "\(report.marked.count) families"
            let their = report.marked.count == 1 ? "its" : "their"
            return "Marked \(families), with \(their) memberships and profiles, for upload: "
                + "the next resync sends them.\n"
        }
        if !result.unknown.isEmpty {
            throw context.fail(CommandError.noSuchFamily(result.unknown, store: global.store), Self.exits)
        }
    }
}

struct ResyncReuploadReport: Encodable {
    let command = "resync --reupload"
    let marked: [String]
    /// Ids of no family in the store.
    let unknown: [String]

    enum CodingKeys: String, CodingKey { case command, marked, unknown }
}
