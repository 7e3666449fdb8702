import Foundation
import TribeBoardDomain

/// One problem an audit found, with the families involved and what to do about it.
package struct AuditFinding: Encodable, Sendable, Equatable {
    package enum Severity: String, Encodable, Sendable, Comparable, CaseIterable {
        case warning, error

        package static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    package enum Category: String, Encodable, Sendable, CaseIterable {
        case duplicateLocal = "duplicate-local"
        case duplicateRemote = "duplicate-remote"
        case duplicateLocalRemote = "duplicate-local-remote"
        case caseOnlyTwins = "case-only-twins"
        case invalidFormat = "invalid-format"
        case unreadableSnapshotLine = "unreadable-snapshot-line"
        case duplicateRecordName = "duplicate-record-name"
        case missingRemote = "missing-remote"
        case noParentAdmin = "no-parent-admin"
        case registeredTwice = "registered-twice"
        case stalePending = "stale-pending"
        case remoteOnly = "remote-only"
        case legacyRecord = "legacy-record"
        case codeDiffers = "code-differs"
        case invalidValue = "invalid-value"
        case orphanClaim = "orphan-claim"
        case foreignClaim = "foreign-claim"

        package var severity: Severity {
            switch self {
            case .duplicateLocal, .duplicateRemote, .duplicateLocalRemote, .caseOnlyTwins, .invalidFormat, .unreadableSnapshotLine,
                 .duplicateRecordName, .missingRemote, .foreignClaim:
                return .error
            case .noParentAdmin, .registeredTwice, .stalePending, .remoteOnly, .legacyRecord, .codeDiffers, .invalidValue, .orphanClaim:
                return .warning
            }
        }

        /// Categories that can run to hundreds of thousands: one finding with a count and a sample.
        var isAggregated: Bool {
            self == .stalePending || self == .remoteOnly || self == .legacyRecord || self == .missingRemote
        }

        package var title: String {
            switch self {
            case .duplicateLocal: return "same code on several local families"
            case .duplicateRemote: return "same code on several CloudKit records"
            case .duplicateLocalRemote: return "same code on a local family and a different CloudKit family"
            case .caseOnlyTwins: return "codes that differ only in case or spaces"
            case .invalidFormat: return "code breaks the format \(FamilyCode.wireFormatPattern)"
            case .unreadableSnapshotLine: return "snapshot line that is not a record"
            case .duplicateRecordName: return "record name read more than once"
            case .missingRemote: return "families marked uploaded but gone from CloudKit"
            case .noParentAdmin: return "family without a parent admin (active or awaiting)"
            case .registeredTwice: return "a parent registered twice: same family name and admin"
            case .stalePending: return "families pending sync for too long"
            case .remoteOnly: return "CloudKit families unknown locally"
            case .legacyRecord: return "records of a legacy record type"
            case .codeDiffers: return "local and CloudKit copies of a family have different codes"
            case .invalidValue: return "CloudKit record with a value out of range (treated as unknown)"
            case .orphanClaim: return "code claims naming a family that exists neither here nor in CloudKit"
            case .foreignClaim: return "code claims this store made, now held by another CloudKit user or record"
            }
        }
    }

    package var severity: Severity { category.severity }
    package let category: Category
    /// The code concerned, masked unless the audit was asked to show codes.
    package var code: String?
    /// What is wrong, in a sentence.
    package var message: String
    package var action: String
    package var families: [AuditFamily]
    /// For aggregated findings: how many families or records, of which `families` is a sample.
    package var count: Int
    /// For legacy records: how many of `count` already have the copy `migrate legacy-types` made.
    package var migrated: Int?

    package init(category: Category, code: String? = nil, message: String, action: String, families: [AuditFamily], count: Int? = nil,
                migrated: Int? = nil) {
        self.category = category
        self.code = code
        self.message = message
        self.action = action
        self.families = families
        self.count = count ?? families.count
        self.migrated = migrated
    }

    enum CodingKeys: String, CodingKey { case severity, category, code, message, action, families, count, migrated }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(category, forKey: .category)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(action, forKey: .action)
        try container.encode(families, forKey: .families)
        try container.encode(count, forKey: .count)
        try container.encodeIfPresent(migrated, forKey: .migrated)
    }
}

/// A family (or record) named in a finding, and where it lives.
package struct AuditFamily: Encodable, Sendable, Equatable {
    package enum Location: String, Encodable, Sendable {
        case local
        case remote
        /// In the store and in CloudKit under the same id.
        case both = "local+remote"
    }

    package var id: String
    package var name: String?
    package var location: Location
    /// Masked unless the audit shows codes.
    package var code: String?
    package var recordType: String?
    package var createdAt: String?
    /// The line of the remote snapshot holding the record.
    package var snapshotLine: Int?

    package init(id: String, name: String? = nil, location: Location, code: String? = nil, recordType: String? = nil,
                createdAt: String? = nil, snapshotLine: Int? = nil) {
        self.id = id
        self.name = name
        self.location = location
        self.code = code
        self.recordType = recordType
        self.createdAt = createdAt
        self.snapshotLine = snapshotLine
    }
}
