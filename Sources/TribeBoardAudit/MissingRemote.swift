import Foundation
import TribeBoardCloudKit

/// Families the store marks uploaded that CloudKit no longer holds (deleted in the Console).
///
/// A query reads an index that lags: a family uploaded seconds ago can be missing from the read
/// and still be there. So a family is reported only once that is ruled out: live, by looking its
/// record up by name (records/lookup reads the record, not an index); from a snapshot, which cannot
/// be asked again, only when it was uploaded `snapshotMargin` before the snapshot was written.
struct MissingRemoteCheck {
    /// Families looked up by name at most (50 requests). More than that missing from a read is
    /// rather a wrong container or environment: the rest are counted as not confirmed.
    static let lookupLimit = 10_000
    /// What a snapshot's query could have missed for index lag: uploads this close to its writing.
    static let snapshotMargin: TimeInterval = 600

    struct Outcome: Sendable {
        /// Confirmed gone, sorted by id.
        var missing: [String] = []
        /// Not in the read, but not confirmed gone (uploaded too recently, over the lookup limit,
        /// or a lookup answered something other than NOT_FOUND): not reported as gone.
        var unconfirmed = 0
    }

    let local: LocalFamilyIndex
    let remote: RemoteFamilyIndex

    /// Uploaded families of the store that the remote read did not see, sorted by id.
    func candidates() -> [String] {
        local.codes.entries.filter { $0.uploaded && !remote.holds(recordName: $0.id) }.map(\.id.string).sorted()
    }

    /// Live: each candidate looked up by name; gone only when CloudKit answers NOT_FOUND.
    func confirmLive(_ candidates: [String], client: CloudKitClient) async throws(CloudKitError) -> Outcome {
        var outcome = Outcome()
        let asked = Array(candidates.prefix(Self.lookupLimit))
        outcome.unconfirmed = candidates.count - asked.count
        let found = MatchedResults(asked: asked, results: try await client.lookup(recordNames: asked),
                                   operation: "records/lookup (missing families)")
        for name in asked {
            switch found.byName[name] {
            case .failure(let error)? where error.code == .notFound: outcome.missing.append(name)
            case .record?: continue
            default: outcome.unconfirmed += 1
            }
        }
        return outcome
    }

    /// From a snapshot: gone when uploaded `snapshotMargin` or longer before the file was written.
    static func confirmFromSnapshot(_ candidates: [String], snapshotWritten: Date?, lastSync: (String) -> Date?) -> Outcome {
        var outcome = Outcome()
        for id in candidates {
            if let written = snapshotWritten, let synced = lastSync(id), synced <= written.addingTimeInterval(-snapshotMargin) {
                outcome.missing.append(id)
            } else {
                outcome.unconfirmed += 1
            }
        }
        return outcome
    }

    static func modificationDate(ofSnapshot path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
