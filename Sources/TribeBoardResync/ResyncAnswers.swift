import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardStore

extension Resyncer {
    /// Each create's answer: uploaded, to look up (its name exists), or settled as failed. A
    /// refusal of the whole run's configuration stops it.
    func sortAnswers(
        _ answered: MatchedResults, pending: [Upload], table: SyncTable,
        bookkeeping: SyncBookkeeping, at now: Timestamp, synced: inout [PendingRow],
        existing: inout [Upload], report: inout ResyncReport
    ) throws -> ResyncReport.Stop? {
        for upload in pending {
            let (record, read) = (upload.record, upload.read)
            switch answered.byName[record.recordName] {
            case nil: continue
            case .record?: synced.append(read)
            // A create answered EXISTS, or CONFLICT (how native CloudKit reports "record to insert
            // already exists"; Web Services does not document which it sends): look it up and
            // compare, identical means an earlier run uploaded it before it was stopped.
            case .failure(let error)? where error.code == .exists || error.code == .conflict:
                existing.append(Upload(record: record, read: read))
            // A family's create refused for this record: another creator's record may hold its
            // name (an app user's): looked up like EXISTS, so that it is named as that.
            case .failure(let error)? where table == .families && Self.refusedForThisRecord(error):
                existing.append(Upload(record: record, read: read, refusal: error))
            case .failure(let error)?
            where error.code == .badRequest
                && error.reason.flatMap(CloudKitError.schemaProblem(in:)) != nil:
                // The container's schema refuses the record (not deployed to production): the whole
                // run's configuration, not this record's fault; it stays pending.
                let reason = error.reason ?? ""
                return .remote(
                    .schema(CloudKitError.schemaProblem(in: reason) ?? .notDeployed, reason: reason)
                )
            case .failure(let error)?:
                if error.code.category == .configuration && !Self.refusedForThisRecord(error) {
                    return .remote(
                        .service(
                            code: error.code, httpStatus: 0, reason: error.reason ?? "",
                            retryAfter: nil))
                }
                try settle(error, row: read, bookkeeping: bookkeeping, at: now)
                report.failed += 1
            }
        }
        return nil
    }

    /// Creates whose name exists, looked up: the same record (an earlier run's upload), ours to
    /// repair (`updates`), or a conflict. Succeeds with what the lookup left unmatched, if
    /// anything.
    func settleExisting(_ existing: [Upload], table: SyncTable, bookkeeping: SyncBookkeeping,
                        at now: Timestamp, synced: inout [PendingRow], updates: inout [Upload],
                        report: inout ResyncReport) async throws -> Result<String?, CloudKitError> {
        let names = existing.map(\.record.recordName)
        let remote: [CloudKitRecordResult]
        do throws(CloudKitError) {
            remote = try await client.lookup(recordNames: names)
        } catch {
            return .failure(error)
        }
        let found = MatchedResults(asked: names, results: remote, operation: "records/lookup")
        // Who this key is, to tell its own earlier upload from another creator's copy
        // (Apple: compare `created.userRecordName` with users/caller); asked once per run.
        let caller: String
        do throws(CloudKitError) {
            caller = try await ClaimCaller.name(of: client, requests: &report.requests)
        } catch {
            return .failure(error)
        }
        let repaired = table == .families
            ? try store.replacedCodes(of: names.map(FamilyID.init(rawValue:))) : [:]
        for upload in existing {
            let (ours, read) = (upload.record, upload.read)
            guard let theirs = found.byName[ours.recordName] else { continue }
            if let refusal = upload.refusal, case .failure = theirs {
                try settle(refusal, row: read, bookkeeping: bookkeeping, at: now)
                report.failed += 1
            } else if case .record(let remoteRecord) = theirs,
                PendingRecords.sameContent(ours, remoteRecord),
                remoteRecord.created?.userRecordName == caller
            {
                synced.append(read)
            } else if case .record(let remoteRecord) = theirs,
                let update = Self.repairUpdate(ours, theirs: remoteRecord, repaired: repaired)
            {
                updates.append(Upload(record: update, read: read))
            } else {
                // Conflicting with its own name: the distinct kind (`ResyncListEntry.nameTaken`)
                // that adopt closes, not a code another family holds.
                try bookkeeping.record(
                    .conflict(with: ours.recordName, error: Self.nameTaken(theirs)), row: read,
                    at: now)
                report.failed += 1
            }
        }
        return .success(found.problem)
    }
}
