import Foundation
import TribeBoardCloudKit
import TribeBoardRemote

/// What CloudKit holds of a few families, read by name (consistent) and, for the memberships app
/// users added, by query; and the deletions, each with the change tag it was read with, so a
/// record someone changed meanwhile is not deleted blind (CONFLICT: the next run reads it again).
struct RemoteCase: Sendable {
    let client: CloudKitClient
    /// Requests sent so far (a report's number).
    private(set) var requests = 0

    init(client: CloudKitClient) { self.client = client }

    /// The records of these names CloudKit holds (a name it does not hold is left out).
    mutating func records(named names: [String]) async throws(CloudKitError) -> [String: CloudKitRecord] {
        guard !names.isEmpty else { return [:] }
        requests += (names.count + CloudKitClient.maxOperationsPerRequest - 1) / CloudKitClient.maxOperationsPerRequest
        var found: [String: CloudKitRecord] = [:]
        for case .record(let record) in try await client.lookup(recordNames: names) { found[record.recordName] = record }
        return found
    }

    /// The `Membership` records that name one of these families, by family: the query finds the
    /// ones the store never knew (app users who joined), page by page.
    mutating func memberships(of familyIDs: [String]) async throws(CloudKitError) -> [String: [CloudKitRecord]] {
        var byFamily: [String: [CloudKitRecord]] = [:]
        for chunk in familyIDs.chunked(CloudKitClient.maxOperationsPerRequest) {
            let query = CloudKitQuery(recordType: RecordMapping.membershipType,
                                      filterBy: [.references(MembershipField.family.rawValue, in: Array(chunk))])
            var marker: String?
            var pages = ContinuationGuard(recordType: query.recordType)
            repeat {
                requests += 1
                let page = try await client.query(query, continuationMarker: marker)
                for case .record(let record) in page.records {
                    guard let family = RemoteMembership(record).family else { continue }
                    byFamily[family, default: []].append(record)
                }
                marker = try pages.next(after: page.continuationMarker)
            } while marker != nil
        }
        return byFamily
    }

    enum Deletion: Sendable, Equatable {
        /// Deleted now, or already gone.
        case gone
        /// `refusedByRoles`: ACCESS_DENIED, the record is another creator's (an app user's):
        /// this key may never delete it, so running again changes nothing.
        case failed(String, refusedByRoles: Bool = false)
    }

    /// Deletes these records as read (with their change tags); gone ones count as deleted.
    mutating func delete(_ records: [CloudKitRecord]) async throws(CloudKitError) -> [String: Deletion] {
        guard !records.isEmpty else { return [:] }
        requests += (records.count + CloudKitClient.maxOperationsPerRequest - 1) / CloudKitClient.maxOperationsPerRequest
        let results = try await client.modify(records.map { CloudKitOperation(.delete, $0) })
        let matched = MatchedResults(asked: records.map(\.recordName), results: results, operation: "records/modify (removals)")
        var outcomes: [String: Deletion] = [:]
        for record in records {
            switch matched.byName[record.recordName] {
            case .record?: outcomes[record.recordName] = .gone
            case .failure(let error)? where error.code == .notFound: outcomes[record.recordName] = .gone
            case .failure(let error)? where error.code == .accessDenied:
                outcomes[record.recordName] = .failed("\(error.serverErrorCode)\(error.reason.map { ": \($0)" } ?? "")", refusedByRoles: true)
            case .failure(let error)?: outcomes[record.recordName] = .failed("\(error.serverErrorCode)\(error.reason.map { ": \($0)" } ?? "")")
            case nil: outcomes[record.recordName] = .failed(matched.problem ?? "no answer for this record")
            }
        }
        return outcomes
    }

    /// Creates these records; one CloudKit already holds under its name counts as created (an
    /// earlier run created it, then was stopped before the store knew).
    mutating func create(_ records: [CloudKitRecord]) async throws(CloudKitError) -> [String: Deletion] {
        guard !records.isEmpty else { return [:] }
        requests += (records.count + CloudKitClient.maxOperationsPerRequest - 1) / CloudKitClient.maxOperationsPerRequest
        let results = try await client.modify(records.map { CloudKitOperation(.create, $0) })
        let matched = MatchedResults(asked: records.map(\.recordName), results: results, operation: "records/modify (moved members)")
        var outcomes: [String: Deletion] = [:]
        for record in records {
            switch matched.byName[record.recordName] {
            case .record?: outcomes[record.recordName] = .gone
            case .failure(let error)? where error.code == .exists || error.code == .conflict: outcomes[record.recordName] = .gone
            case .failure(let error)?: outcomes[record.recordName] = .failed("\(error.serverErrorCode)\(error.reason.map { ": \($0)" } ?? "")")
            case nil: outcomes[record.recordName] = .failed(matched.problem ?? "no answer for this record")
            }
        }
        return outcomes
    }
}
