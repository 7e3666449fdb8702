import Foundation

/// What an audit keeps of one CloudKit record, from a live query or a snapshot line.
public struct RemoteRecordSummary: Sendable, Equatable {
    public var recordName: String
    public var recordType: String
    public var code: String?
    public var name: String?
    public var createdAtMilliseconds: Int64?
    /// The snapshot line it came from; nil for a live read.
    public var line: Int?

    public init(recordName: String, recordType: String, code: String?, name: String?, createdAtMilliseconds: Int64?, line: Int?) {
        self.recordName = recordName
        self.recordType = recordType
        self.code = code
        self.name = name
        self.createdAtMilliseconds = createdAtMilliseconds
        self.line = line
    }

    public init(_ record: CloudKitRecord, line: Int? = nil) {
        recordName = record.recordName
        recordType = record.recordType ?? ""
        code = record.string("code")
        name = record.string("name")
        if let created = record.fields?["createdAt"]?.value.number {
            createdAtMilliseconds = Int64(created)
        } else {
            createdAtMilliseconds = record.created?.timestamp
        }
        self.line = line
    }

    /// Family records, current or legacy: their codes must be unique together.
    var holdsFamilyCode: Bool {
        recordType == RecordMapping.familyType || recordType == RecordMapping.legacyTypes[0]
    }

    var isLegacy: Bool { RecordMapping.legacyTypes.contains(recordType) }
}

/// Where the remote side of an audit comes from.
public enum RemoteSource: Sendable {
    case snapshot(path: String)
    /// A live read through records/query; `exportTo` also writes what was read as a snapshot.
    case live(CloudKitClient, exportTo: String?)
}
