import Foundation

/// Request bodies of records/query, records/lookup and records/modify as Apple documents them.
/// Unknown keys are ignored, as a server does; missing required keys make the body malformed.
struct QueryRequestBody: Decodable {
    struct Filter: Decodable {
        var fieldName: String
        var comparator: String
        var fieldValue: WireRecord.Field
    }

    struct Sort: Decodable {
        var fieldName: String
        var ascending: Bool?
    }

    struct Query: Decodable {
        var recordType: String
        var filterBy: [Filter]?
        var sortBy: [Sort]?
    }

    var zoneID: WireZoneID?
    var resultsLimit: Int?
    var query: Query
    var continuationMarker: String?
    /// Only these fields in the answer (Apple: "null ... fetches all record fields").
    var desiredKeys: [String]?
}

struct LookupRequestBody: Decodable {
    struct Name: Decodable { var recordName: String }
    var records: [Name]
    var zoneID: WireZoneID?
    var desiredKeys: [String]?
}

struct ModifyRequestBody: Decodable {
    struct Operation: Decodable {
        var operationType: String
        var record: WireRecord
    }

    var operations: [Operation]
    var zoneID: WireZoneID?
    var atomic: Bool?
}

/// The operation types of records/modify.
enum OperationType: String {
    case create, update, replace, forceUpdate, forceReplace, delete, forceDelete
}

extension WireRecord {
    /// The record with only the fields `desiredKeys` names; all of them when it is nil.
    func keeping(_ desiredKeys: [String]?) -> WireRecord {
        guard let desiredKeys else { return self }
        var copy = self
        copy.fields = fields?.filter { desiredKeys.contains($0.key) }
        return copy
    }
}

extension RecordEntry {
    func keeping(_ desiredKeys: [String]?) -> RecordEntry {
        guard case .record(let record) = self else { return self }
        return .record(record.keeping(desiredKeys))
    }
}
