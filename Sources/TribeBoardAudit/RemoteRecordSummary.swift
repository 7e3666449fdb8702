import Foundation
import TribeBoardCloudKit
import TribeBoardRemote

/// What an audit keeps of one CloudKit record, from a live query or a snapshot line.
struct RemoteRecordSummary: Sendable, Equatable {
    package var recordName: String
    package var recordType: String
    package var code: String?
    package var name: String?
    /// nil when absent or unusable (then `invalidValue` says why): such a record is never the
    /// oldest of a duplicate group.
    var createdAtMilliseconds: Int64?
    /// A value from outside that could not be used, in a sentence ("fields.createdAt.value is out of range").
    var invalidValue: String?
    /// The snapshot line it came from; nil for a live read.
    package var line: Int?
    /// `fields.code` is there but its value is not a string (a NUMBER): the same finding from a
    /// live read and from a snapshot of it.
    var codeIsNotString = false

    /// A record CloudKit cannot have: it can be neither named in a finding nor changed. Checked
    /// here, for a live read and a snapshot alike, so that both audits of the same data agree.
    var hasNoName: Bool { recordName.isEmpty }

    package init(recordName: String, recordType: String, code: String?, name: String?, createdAtMilliseconds: Int64?,
                invalidValue: String? = nil, line: Int?) {
        self.recordName = recordName
        self.recordType = recordType
        self.code = code
        self.name = name
        self.createdAtMilliseconds = createdAtMilliseconds
        self.invalidValue = invalidValue
        self.line = line
    }

    /// A live read: the Remote module's decoder (the snapshot parser reads the same fields, with
    /// the same rule: `SnapshotParserAgreementTests`).
    package init(_ record: CloudKitRecord, line: Int? = nil) {
        let family = RemoteFamily(record)
        self.init(recordName: family.recordName, recordType: family.recordType, code: family.code, name: family.name,
                  createdAtMilliseconds: family.created.milliseconds, invalidValue: family.created.problem, line: line)
        codeIsNotString = family.codeIsNotString
    }

    /// Family records, current or legacy: their codes must be unique together.
    var holdsFamilyCode: Bool {
        recordType == RecordMapping.familyType || recordType == RecordMapping.legacyTypes[0]
    }

    var isLegacy: Bool { RecordMapping.legacyTypes.contains(recordType) }
}

/// Where the remote side of an audit comes from.
package enum RemoteSource: Sendable {
    case snapshot(path: String)
    /// A live read through records/query; `exportTo` also writes what was read as a snapshot.
    case live(CloudKitClient, exportTo: String?)
}
