import Foundation

package struct CloudKitZoneID: Codable, Sendable, Equatable {
    package var zoneName: String

    package init(zoneName: String) { self.zoneName = zoneName }
    package static let defaultZone = CloudKitZoneID(zoneName: "_defaultZone")
}

/// A filter of records/query. The comparators are the documented ones.
package struct CloudKitFilter: Codable, Sendable, Equatable {
    package var fieldName: String
    package var comparator: String
    package var fieldValue: CloudKitRecord.Field

    package static func equals(_ field: String, _ value: String) -> Self {
        Self(fieldName: field, comparator: "EQUALS", fieldValue: .string(value))
    }

    /// A TIMESTAMP field (a system one such as `___createTime` included) after `milliseconds`.
    package static func after(_ field: String, milliseconds: Int64) -> Self {
        Self(
            fieldName: field, comparator: "GREATER_THAN",
            fieldValue: .timestamp(milliseconds: milliseconds))
    }

    /// Apple documents it ("a string field that doesn't begin with a substring"), not whether a
    /// record without the field matches.
    package static func notBeginsWith(_ field: String, _ value: String) -> Self {
        Self(fieldName: field, comparator: "NOT_BEGINS_WITH", fieldValue: .string(value))
    }

    /// A REFERENCE field naming one of these records (`IN` with a `REFERENCE_LIST`).
    package static func references(_ field: String, in recordNames: [String]) -> Self {
        let references = recordNames.map {
            JSONValue.object(["recordName": .string($0), "action": .string("NONE")])
        }
        return Self(
            fieldName: field, comparator: "IN",
            fieldValue: CloudKitRecord.Field(value: .array(references), type: "REFERENCE_LIST"))
    }

    package static func isIn(_ field: String, _ values: [String]) -> Self {
        Self(
            fieldName: field, comparator: "IN",
            fieldValue: CloudKitRecord.Field(
                value: .array(values.map { .string($0) }), type: "STRING_LIST"))
    }
}

package struct CloudKitQuery: Codable, Sendable, Equatable {
    package var recordType: String
    package var filterBy: [CloudKitFilter]?

    package init(recordType: String, filterBy: [CloudKitFilter]? = nil) {
        self.recordType = recordType
        self.filterBy = filterBy
    }
}

struct QueryRequest: Codable {
    var zoneID: CloudKitZoneID
    var resultsLimit: Int
    var query: CloudKitQuery
    var continuationMarker: String?
}

package struct CloudKitQueryPage: Decodable, Sendable {
    package var records: [CloudKitRecordResult]
    package var continuationMarker: String?
}

/// One operation of records/modify.
package struct CloudKitOperation: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable, CaseIterable {
        case create, update, replace, forceUpdate, forceReplace, delete, forceDelete
    }

    package var operationType: Kind
    package var record: CloudKitRecord

    package init(_ kind: Kind, _ record: CloudKitRecord) {
        operationType = kind
        self.record = record
    }
}

struct ModifyRequest: Codable {
    var operations: [CloudKitOperation]
    var zoneID: CloudKitZoneID
    /// Sent explicitly, as documented: it only has an effect in custom zones.
    var atomic: Bool
}

struct LookupRequest: Codable {
    struct Name: Codable { var recordName: String }
    var records: [Name]
    var zoneID: CloudKitZoneID
}

struct RecordsResponse: Decodable, Sendable {
    var records: [CloudKitRecordResult]
}

/// users/caller's identity. Apple's reference shows it inside `{"users": [ … ]}`; older clients
/// (and some answers) have it at the top level: both are read.
package struct CloudKitCaller: Decodable, Sendable {
    package var userRecordName: String

    private enum CodingKeys: String, CodingKey { case userRecordName, users }
    private struct Identity: Decodable { var userRecordName: String }

    package init(userRecordName: String) { self.userRecordName = userRecordName }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try container.decodeIfPresent(String.self, forKey: .userRecordName) {
            userRecordName = name
        } else if let first = try container.decodeIfPresent([Identity].self, forKey: .users)?.first
        {
            userRecordName = first.userRecordName
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.userRecordName,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "users/caller named no user (neither userRecordName nor users[0].userRecordName)"
                ))
        }
    }
}
