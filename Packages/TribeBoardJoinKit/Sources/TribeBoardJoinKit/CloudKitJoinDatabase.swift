#if canImport(CloudKit)
import CloudKit

/// The kit's database on Apple platforms: the container's public database, default zone.
///
/// Written from Apple's CloudKit documentation and NOT compiled by the toolkit's CI, which runs
/// on Linux where the CloudKit framework does not exist; build and run the kit's tests in Xcode
/// once when adopting it. Kept thin: every rule is in the kit's core, tested on Linux.
///
/// Errors are the framework's own `CKError`s, passed through: `.networkUnavailable`,
/// `.networkFailure`, `.serviceUnavailable` and `.requestRateLimited` (retry after
/// `retryAfterSeconds`), `.notAuthenticated` (no iCloud account: the public database reads
/// without one, but writing needs one), `.permissionFailure` (the schema's security roles),
/// `.quotaExceeded`. A create of an existing name is not an error here: it answers
/// `.alreadyExists` (`CKError.serverRecordChanged`, "record to insert already exists").
public struct CloudKitJoinDatabase: JoinDatabase {
    public let database: CKDatabase
    private let container: CKContainer

    public init(container: CKContainer = .default()) {
        self.container = container
        self.database = container.publicCloudDatabase
    }

    public func fetch(_ names: [String]) async throws -> [String: JoinRecord] {
        let results = try await database.records(for: names.map { CKRecord.ID(recordName: $0) })
        let me = try? await container.userRecordID().recordName
        var found: [String: JoinRecord] = [:]
        for (id, result) in results {
            switch result {
            case .success(let record): found[id.recordName] = Self.joinRecord(record, me: me)
            case .failure(let error as CKError) where error.code == .unknownItem: continue
            case .failure(let error): throw error
            }
        }
        return found
    }

    public func create(_ record: JoinRecord) async throws -> JoinCreateResult {
        let native = CKRecord(recordType: record.type, recordID: CKRecord.ID(recordName: record.name))
        for (key, field) in record.fields {
            switch field {
            case .string(let value): native[key] = value as NSString
            case .timestamp(let milliseconds): native[key] = Date(timeIntervalSince1970: Double(milliseconds) / 1000) as NSDate
            case .reference(let name):
                native[key] = CKRecord.Reference(recordID: CKRecord.ID(recordName: name), action: .deleteSelf)
            }
        }
        do {
            let saved = try await database.save(native)
            return .created(Self.joinRecord(saved, me: try? await container.userRecordID().recordName))
        } catch let error as CKError where error.code == .serverRecordChanged {
            return .alreadyExists
        }
    }

    public func memberships(ofFamily familyName: String) async throws -> [JoinRecord] {
        let family = CKRecord.Reference(recordID: CKRecord.ID(recordName: familyName), action: .none)
        let query = CKQuery(recordType: JoinRecordType.membership, predicate: NSPredicate(format: "family == %@", family))
        let (results, _) = try await database.records(matching: query, inZoneWith: nil, resultsLimit: 200)
        let me = try? await container.userRecordID().recordName
        return results.compactMap { try? $0.1.get() }.map { Self.joinRecord($0, me: me) }
    }

    /// The framework names the current user's own records' creator `CKCurrentUserDefaultName`
    /// ("__defaultOwner__"); the kit compares real names, so that placeholder becomes `me`.
    static func joinRecord(_ record: CKRecord, me: String?) -> JoinRecord {
        var fields: [String: JoinField] = [:]
        for key in record.allKeys() {
            switch record[key] {
            case let value as String: fields[key] = .string(value)
            case let value as Date: fields[key] = .timestamp(milliseconds: Int64((value.timeIntervalSince1970 * 1000).rounded()))
            case let value as CKRecord.Reference: fields[key] = .reference(value.recordID.recordName)
            default: continue
            }
        }
        var creator = record.creatorUserRecordID?.recordName
        if creator == CKCurrentUserDefaultName { creator = me }
        return JoinRecord(name: record.recordID.recordName, type: record.recordType, fields: fields, creator: creator)
    }
}
#endif
