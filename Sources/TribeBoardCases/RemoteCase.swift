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
    mutating func records(named names: [String]) async throws(CloudKitError) -> [String:
        CloudKitRecord]
    {
        guard !names.isEmpty else { return [:] }
        requests += Self.requests(for: names.count)
        var found: [String: CloudKitRecord] = [:]
        for case .record(let record) in try await client.lookup(recordNames: names) {
            found[record.recordName] = record
        }
        return found
    }

    /// The `Membership` records that name one of these families, by family: the query finds the
    /// ones the store never knew (app users who joined), page by page.
    mutating func memberships(of familyIDs: [String]) async throws(CloudKitError) -> [String:
        [CloudKitRecord]]
    {
        var byFamily: [String: [CloudKitRecord]] = [:]
        for chunk in familyIDs.chunked(CloudKitClient.maxOperationsPerRequest) {
            let query = CloudKitQuery(
                recordType: RecordMapping.membershipType,
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
    mutating func delete(_ records: [CloudKitRecord]) async throws(CloudKitError) -> [String:
        Deletion]
    {
        try await modify(records, .delete, operation: "records/modify (removals)") { error in
            switch error.code {
            case .notFound: return .gone
            case .accessDenied: return .failed(Self.reason(error), refusedByRoles: true)
            default: return .failed(Self.reason(error))
            }
        }
    }

    /// Creates these records; one CloudKit already holds under its name counts as created (an
    /// earlier run created it, then was stopped before the store knew).
    mutating func create(_ records: [CloudKitRecord]) async throws(CloudKitError) -> [String:
        Deletion]
    {
        try await modify(records, .create, operation: "records/modify (moved members)") { error in
            error.code == .exists || error.code == .conflict ? .gone : .failed(Self.reason(error))
        }
    }

    /// One modify of these records, each record's answer settled by `settle` when it failed.
    private mutating func modify(
        _ records: [CloudKitRecord], _ kind: CloudKitOperation.Kind, operation: String,
        settle: (CloudKitRecordError) -> Deletion
    ) async throws(CloudKitError) -> [String: Deletion] {
        guard !records.isEmpty else { return [:] }
        requests += Self.requests(for: records.count)
        let results = try await client.modify(records.map { CloudKitOperation(kind, $0) })
        let names = records.map(\.recordName)
        let matched = MatchedResults(asked: names, results: results, operation: operation)
        var outcomes: [String: Deletion] = [:]
        for name in names {
            switch matched.byName[name] {
            case .record?: outcomes[name] = .gone
            case .failure(let error)?: outcomes[name] = settle(error)
            case nil: outcomes[name] = .failed(matched.problem ?? "no answer for this record")
            }
        }
        return outcomes
    }

    /// The requests `count` records take, at the client's most operations a request.
    private static func requests(for count: Int) -> Int {
        (count + CloudKitClient.maxOperationsPerRequest - 1)
            / CloudKitClient.maxOperationsPerRequest
    }

    /// A record's failure as a report says it: the server's code, then its reason when it gave one.
    private static func reason(_ error: CloudKitRecordError) -> String {
        "\(error.serverErrorCode)\(error.reason.map { ": \($0)" } ?? "")"
    }
}
