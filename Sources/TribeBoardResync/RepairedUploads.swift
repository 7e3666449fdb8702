import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// Families an audit repair gave a new code: their CloudKit record still holds the old code, so
/// a create answers EXISTS with a different record. When the only difference is the code, and
/// the store's `code_repairs` says the remote one is the code it replaced, the record is updated
/// (with its change tag, so a concurrent edit in the app wins and is retried later).
extension Resyncer {
    static func repairUpdate(
        _ ours: CloudKitRecord, theirs: CloudKitRecord, repaired: [FamilyID: Set<String>]
    ) -> CloudKitRecord? {
        guard ours.recordType == RecordMapping.familyType,
            let remoteCode = theirs.string(FamilyField.code),
            repaired[FamilyID(rawValue: ours.recordName)]?.contains(remoteCode) == true
        else { return nil }
        var withoutCode = ours
        withoutCode[field: FamilyField.code] = theirs[field: FamilyField.code]
        guard PendingRecords.sameContent(withoutCode, theirs) else { return nil }
        var update = ours
        update.recordChangeTag = theirs.recordChangeTag
        return update
    }

    /// Sends the updates; returns the rows now synced, and what did not match in the answer.
    func uploadRepairs(
        _ updates: [Upload], bookkeeping: SyncBookkeeping,
        report: inout ResyncReport
    ) async throws -> Result<(synced: [PendingRow], problem: String?), CloudKitError> {
        let results: [CloudKitRecordResult]
        do throws(CloudKitError) {
            results = try await client.modify(updates.map { CloudKitOperation(.update, $0.record) })
        } catch {
            return .failure(error)
        }
        let answered = MatchedResults(
            asked: updates.map(\.record.recordName), results: results, operation: "records/modify")
        var synced: [PendingRow] = []
        for upload in updates {
            let (record, read) = (upload.record, upload.read)
            switch answered.byName[record.recordName] {
            case nil: continue
            case .record?: synced.append(read)
            case .failure(let error)? where error.code == .conflict:
                // Changed in CloudKit since the lookup: look again next run.
                try bookkeeping.record(.retry(error: "CONFLICT: the CloudKit record changed while its repaired code was uploaded", backoff: backoff),
                                       row: read, at: .now)
                report.failed += 1
            case .failure(let error)?:
                try settle(error, row: read, bookkeeping: bookkeeping, at: .now)
                report.failed += 1
            }
        }
        return .success((synced, answered.problem))
    }
}
