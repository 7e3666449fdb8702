import Foundation
import TribeBoardCore

/// The records of every container, environment, database and zone the emulator has seen, with
/// the semantics of records/query, records/lookup and records/modify as Apple documents them.
struct EmulatorDatabase: Codable {
    /// `container/environment/database/zone` to records by name.
    var zones: [String: [String: CloudKitRecord]] = [:]
    var nextTag = 1
    /// `zone` -> `field=value` -> record names, for the queryable fields, as CloudKit's indexes:
    /// EQUALS and IN queries then cost what they return, not the zone's size. Derived, not saved.
    private var index: [String: [String: Set<String>]] = [:]

    enum CodingKeys: String, CodingKey { case zones, nextTag }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zones = try container.decode([String: [String: CloudKitRecord]].self, forKey: .zones)
        nextTag = try container.decode(Int.self, forKey: .nextTag)
        for (zone, records) in zones { for record in records.values { addToIndex(record, zone: zone) } }
    }

    private static func indexKeys(_ record: CloudKitRecord) -> [String] {
        (record.fields ?? [:]).compactMap { field, value in
            guard queryableFields.contains(field), let text = comparable(value.value) else { return nil }
            return "\(field)=\(text)"
        }
    }

    private mutating func addToIndex(_ record: CloudKitRecord, zone: String) {
        for key in Self.indexKeys(record) { index[zone, default: [:]][key, default: []].insert(record.recordName) }
    }

    private mutating func removeFromIndex(_ record: CloudKitRecord, zone: String) {
        for key in Self.indexKeys(record) { index[zone]?[key]?.remove(record.recordName) }
    }

    /// Records that can match: from the index when a filter is EQUALS or IN on an indexed field.
    private func candidates(_ filters: [CloudKitFilter], in zone: String) -> [CloudKitRecord] {
        let records = zones[zone] ?? [:]
        guard let filter = filters.first(where: { ["EQUALS", "IN"].contains($0.comparator) && $0.fieldName != "recordName" }) else {
            return Array(records.values)
        }
        let values = filter.comparator == "IN" ? (filter.fieldValue.value.array ?? []).compactMap { Self.comparable($0) }
                                               : [Self.comparable(filter.fieldValue.value)].compactMap { $0 }
        var names = Set<String>()
        for value in values { names.formUnion(index[zone]?["\(filter.fieldName)=\(value)"] ?? []) }
        return names.compactMap { records[$0] }
    }

    /// Fields the documented schema marks queryable; filtering on another field is BAD_REQUEST.
    static let queryableFields: Set<String> = ["code", "createdByUserId", "appleUserIdHash", "role", "status", "family", "user",
                                               "CD_code", "recordName"]

    struct Failure: Error {
        let code: CloudKitServerErrorCode
        let reason: String
    }

    // MARK: query

    func query(_ request: QueryBody, in zone: String) throws(Failure) -> (records: [CloudKitRecord], marker: String?) {
        let limit = request.resultsLimit ?? 200
        guard (1...200).contains(limit) else { throw Failure(code: .badRequest, reason: "resultsLimit must be between 1 and 200") }
        let filters = request.query.filterBy ?? []
        for filter in filters {
            guard Self.queryableFields.contains(filter.fieldName) else {
                throw Failure(code: .badRequest, reason: "Field '\(filter.fieldName)' is not marked queryable")
            }
            guard ["EQUALS", "NOT_EQUALS", "IN", "NOT_IN", "BEGINS_WITH"].contains(filter.comparator) else {
                throw Failure(code: .badRequest, reason: "unsupported comparator \(filter.comparator)")
            }
        }
        let after = request.continuationMarker.flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
        let matching = candidates(filters, in: zone)
            .filter { record in record.recordType == request.query.recordType && filters.allSatisfy { Self.matches(record, filter: $0) } }
            .filter { after == nil || $0.recordName > (after ?? "") }
            .sorted { $0.recordName < $1.recordName }
        let page = Array(matching.prefix(limit))
        let marker = matching.count > limit ? page.last.map { Data($0.recordName.utf8).base64EncodedString() } : nil
        return (page, marker)
    }

    static func matches(_ record: CloudKitRecord, filter: CloudKitFilter) -> Bool {
        let actual = filter.fieldName == "recordName" ? record.recordName : Self.comparable(record.fields?[filter.fieldName]?.value)
        switch filter.comparator {
        case "EQUALS": return actual != nil && actual == comparable(filter.fieldValue.value)
        case "NOT_EQUALS": return actual != comparable(filter.fieldValue.value)
        case "IN", "NOT_IN":
            let values = (filter.fieldValue.value.array ?? []).compactMap { comparable($0) }
            let contained = actual.map { values.contains($0) } ?? false
            return filter.comparator == "IN" ? contained : !contained
        case "BEGINS_WITH":
            guard let actual, let prefix = comparable(filter.fieldValue.value) else { return false }
            return actual.hasPrefix(prefix)
        default: return false
        }
    }

    /// Strings as they are; references by their record name; numbers as text.
    static func comparable(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let number): return String(number)
        case .object(let object): return object["recordName"]?.string
        default: return nil
        }
    }

    mutating func seed(_ records: [CloudKitRecord], in zone: String) {
        for record in records {
            if let existing = zones[zone]?[record.recordName] { removeFromIndex(existing, zone: zone) }
            zones[zone, default: [:]][record.recordName] = record
            addToIndex(record, zone: zone)
        }
    }

    // MARK: lookup

    func lookup(_ names: [String], in zone: String) -> [LookupEntry] {
        names.map { name in
            if let record = zones[zone]?[name] { return .record(record) }
            return .error(ErrorEntry(recordName: name, reason: "Record not found", serverErrorCode: "NOT_FOUND"))
        }
    }

    // MARK: modify

    mutating func modify(_ operations: [CloudKitOperation], in zone: String, atomic: Bool, now: Int64,
                         caller: String) throws(Failure) -> [LookupEntry] {
        guard operations.count <= 200 else {
            throw Failure(code: .badRequest, reason: "a request holds at most 200 operations, this one has \(operations.count)")
        }
        var seen = Set<String>()
        for operation in operations where !seen.insert(operation.record.recordName).inserted {
            throw Failure(code: .badRequest, reason: "record \(operation.record.recordName) appears twice in one request")
        }
        // Atomic batches exist only in custom zones, as documented. Only they need a snapshot to
        // roll back to: taking one always made every request copy the whole database.
        let isAtomic = atomic && !zone.hasSuffix("/_defaultZone")
        let before = isAtomic ? self : nil
        var results: [LookupEntry] = []
        for operation in operations {
            do {
                results.append(.record(try apply(operation, in: zone, now: now, caller: caller)))
            } catch {
                results.append(.error(ErrorEntry(recordName: operation.record.recordName, reason: error.reason,
                                                 serverErrorCode: error.code.rawValue)))
            }
        }
        let failed = results.contains { if case .error = $0 { return true } else { return false } }
        if let before, failed {
            self = before
            return results.map { entry in
                if case .error = entry { return entry }
                guard case .record(let record) = entry else { return entry }
                return .error(ErrorEntry(recordName: record.recordName, reason: "another operation in the atomic batch failed",
                                         serverErrorCode: "ATOMIC_ERROR"))
            }
        }
        return results
    }

    private mutating func apply(_ operation: CloudKitOperation, in zone: String, now: Int64, caller: String) throws(Failure) -> CloudKitRecord {
        let name = operation.record.recordName
        let existing = zones[zone]?[name]
        switch operation.operationType {
        case .create:
            guard existing == nil else { throw Failure(code: .exists, reason: "record \(name) already exists") }
            return try store(operation.record, replacing: nil, merge: false, in: zone, now: now, caller: caller)
        case .update, .replace:
            guard let existing else { throw Failure(code: .notFound, reason: "record \(name) does not exist") }
            guard operation.record.recordChangeTag == existing.recordChangeTag else {
                throw Failure(code: .conflict, reason: "record \(name) has changed (change tag \(existing.recordChangeTag ?? "none"))")
            }
            return try store(operation.record, replacing: existing, merge: operation.operationType == .update, in: zone, now: now, caller: caller)
        case .forceUpdate, .forceReplace:
            return try store(operation.record, replacing: existing, merge: operation.operationType == .forceUpdate, in: zone, now: now, caller: caller)
        case .delete:
            guard let existing else { throw Failure(code: .notFound, reason: "record \(name) does not exist") }
            guard operation.record.recordChangeTag == existing.recordChangeTag else {
                throw Failure(code: .conflict, reason: "record \(name) has changed")
            }
            removeFromIndex(existing, zone: zone)
            zones[zone]?[name] = nil
            return CloudKitRecord.deletedMarker(name)
        case .forceDelete:
            if let existing { removeFromIndex(existing, zone: zone) }
            zones[zone]?[name] = nil
            return CloudKitRecord.deletedMarker(name)
        }
    }

    private mutating func store(_ incoming: CloudKitRecord, replacing existing: CloudKitRecord?, merge: Bool,
                                in zone: String, now: Int64, caller: String) throws(Failure) -> CloudKitRecord {
        guard let type = incoming.recordType ?? existing?.recordType else {
            throw Failure(code: .badRequest, reason: "record \(incoming.recordName) has no recordType")
        }
        var fields = merge ? (existing?.fields ?? [:]) : [:]
        for (key, value) in incoming.fields ?? [:] { fields[key] = value }
        for (key, field) in fields where field.type == "REFERENCE" {
            guard let target = field.value.object?["recordName"]?.string, zones[zone]?[target] != nil || target == incoming.recordName else {
                throw Failure(code: .validatingReferenceError, reason: "field \(key) refers to a record that does not exist")
            }
        }
        let size = (try? JSONEncoder().encode(fields).count) ?? 0
        guard size <= 1_000_000 else { throw Failure(code: .badRequest, reason: "record is larger than 1 MB") }
        var record = CloudKitRecord(recordName: incoming.recordName, recordType: type, fields: fields)
        record.recordChangeTag = String(nextTag, radix: 36)
        nextTag += 1
        let stamp = CloudKitRecord.Stamp(timestamp: now, userRecordName: caller)
        record.created = existing?.created ?? stamp
        record.modified = stamp
        if let existing { removeFromIndex(existing, zone: zone) }
        zones[zone, default: [:]][incoming.recordName] = record
        addToIndex(record, zone: zone)
        return record
    }
}

extension CloudKitRecord {
    static func deletedMarker(_ name: String) -> CloudKitRecord {
        var record = CloudKitRecord(recordName: name, recordType: "", fields: [:])
        record.recordType = nil
        record.fields = nil
        record.deleted = true
        return record
    }
}

struct ErrorEntry: Codable, Equatable {
    var recordName: String
    var reason: String
    var serverErrorCode: String
}

enum LookupEntry: Encodable, Equatable {
    case record(CloudKitRecord)
    case error(ErrorEntry)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .error(let error): try error.encode(to: encoder)
        }
    }
}

struct QueryBody: Decodable {
    var zoneID: CloudKitZoneID?
    var resultsLimit: Int?
    var query: CloudKitQuery
    var continuationMarker: String?
}

struct ModifyBody: Decodable {
    var operations: [CloudKitOperation]
    var zoneID: CloudKitZoneID?
    var atomic: Bool?
}

struct LookupBody: Decodable {
    struct Name: Decodable { var recordName: String }
    var records: [Name]
    var zoneID: CloudKitZoneID?
}
