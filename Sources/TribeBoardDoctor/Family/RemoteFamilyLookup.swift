import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// What CloudKit holds for one family: its record by name, and any record holding its code.
package struct RemoteFamilyState: Sendable, Codable, Equatable {
    package enum Status: String, Sendable, Codable {
        case notConfigured, unavailable, found, missing
        /// Several families matched the name: CloudKit is asked about the one chosen, by its id.
        case notAsked
    }

    package var status: Status
    package var detail: String
    /// Records (`Family` or legacy `CKFamily`) found by name or by code.
    package var records: [RemoteFamilyRecord] = []
    /// Who this key acts as (`users/caller`), asked when a record holds the family's name: a
    /// record whose `creator` differs is another creator's, which the key may not change.
    package var caller: String?
    /// What the app finds for the code, through the join kit's lookup; nil without a code.
    package var app: AppLookupReport?
}

package struct RemoteFamilyRecord: Sendable, Codable, Equatable {
    package let recordName: String
    package let recordType: String
    package let code: String?
    package let name: String?
    package let modified: Timestamp?
    /// The app's `createdAt` (else CloudKit's creation time): who is the oldest holder of a code.
    package var created: Timestamp?
    /// Who wrote it (`created.userRecordName`), when CloudKit says.
    package var creator: String?
}

/// Looks the family up by record name and queries its code, in `Family` and legacy `CKFamily`.
struct RemoteFamilyLookup {
    let client: CloudKitClient

    func lookup(recordName: String?, code: String?) async -> RemoteFamilyState {
        var records: [CloudKitRecord] = []
        do {
            if let recordName {
                for case .record(let record) in try await client.lookup(recordNames: [recordName]) {
                    records.append(record)
                }
            }
            if let code {
                for recordType in [RecordMapping.familyType] + RecordMapping.legacyTypes.prefix(1) {
                    let page: CloudKitQueryPage
                    do throws(CloudKitError) {
                        let query = CloudKitQuery(
                            recordType: recordType,
                            filterBy: [.equals(FamilyField.code.rawValue, code)])
                        page = try await client.query(query, resultsLimit: 10)
                    } catch where error.isMissingLegacyType {
                        continue
                    }
                    for case .record(let record) in page.records
                    where !records.contains(where: { $0.recordName == record.recordName }) {
                        records.append(record)
                    }
                }
            }
        } catch {
            return RemoteFamilyState(status: .unavailable, detail: error.localizedDescription)
        }
        let found = records.map { record in
            let family = RemoteFamily(record)
            return RemoteFamilyRecord(
                recordName: family.recordName, recordType: record.recordType ?? "?",
                code: family.code,
                name: family.name,
                modified: record.modified?.timestamp.map(Timestamp.init(milliseconds:)),
                created: family.created.timestamp, creator: record.created?.userRecordName)
        }
        let container =
            "\(client.configuration.container) (\(client.configuration.environment.rawValue), \(client.configuration.database.rawValue))"
        guard !found.isEmpty else {
            return RemoteFamilyState(
                status: .missing, detail: "no record with this name or code in \(container)")
        }
        var state = RemoteFamilyState(
            status: .found, detail: "\(found.count) record(s) in \(container)", records: found)
        // Only when a record holds the family's own name: whose it is decides what closes the case.
        if let recordName,
            found.contains(where: { $0.recordName == recordName && $0.creator != nil })
        {
            state.caller = try? await client.caller().userRecordName
        }
        return state
    }
}
