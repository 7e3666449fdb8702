import Foundation

public struct CloudKitZoneID: Codable, Sendable, Equatable {
    public var zoneName: String

    public init(zoneName: String) { self.zoneName = zoneName }
    public static let defaultZone = CloudKitZoneID(zoneName: "_defaultZone")
}

/// A filter of records/query. The comparators are the documented ones.
public struct CloudKitFilter: Codable, Sendable, Equatable {
    public var fieldName: String
    public var comparator: String
    public var fieldValue: CloudKitRecord.Field

    public static func equals(_ field: String, _ value: String) -> Self {
        Self(fieldName: field, comparator: "EQUALS", fieldValue: .string(value))
    }

    public static func notEquals(_ field: String, _ value: String) -> Self {
        Self(fieldName: field, comparator: "NOT_EQUALS", fieldValue: .string(value))
    }

    public static func beginsWith(_ field: String, _ value: String) -> Self {
        Self(fieldName: field, comparator: "BEGINS_WITH", fieldValue: .string(value))
    }

    public static func isIn(_ field: String, _ values: [String]) -> Self {
        Self(fieldName: field, comparator: "IN",
             fieldValue: CloudKitRecord.Field(value: .array(values.map { .string($0) }), type: "STRING_LIST"))
    }
}

public struct CloudKitQuery: Codable, Sendable, Equatable {
    public var recordType: String
    public var filterBy: [CloudKitFilter]?

    public init(recordType: String, filterBy: [CloudKitFilter]? = nil) {
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

public struct CloudKitQueryPage: Decodable, Sendable {
    public var records: [CloudKitRecordResult]
    public var continuationMarker: String?
}

/// One operation of records/modify.
public struct CloudKitOperation: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case create, update, replace, forceUpdate, forceReplace, delete, forceDelete
    }

    public var operationType: Kind
    public var record: CloudKitRecord

    public init(_ kind: Kind, _ record: CloudKitRecord) {
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
public struct CloudKitCaller: Decodable, Sendable {
    public var userRecordName: String

    private enum CodingKeys: String, CodingKey { case userRecordName, users }
    private struct Identity: Decodable { var userRecordName: String }

    public init(userRecordName: String) { self.userRecordName = userRecordName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try container.decodeIfPresent(String.self, forKey: .userRecordName) {
            userRecordName = name
        } else if let first = try container.decodeIfPresent([Identity].self, forKey: .users)?.first {
            userRecordName = first.userRecordName
        } else {
            throw DecodingError.keyNotFound(CodingKeys.userRecordName, .init(codingPath: decoder.codingPath,
                debugDescription: "users/caller named no user (neither userRecordName nor users[0].userRecordName)"))
        }
    }
}
