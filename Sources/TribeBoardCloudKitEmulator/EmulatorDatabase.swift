import Foundation

/// The records of every container, environment, database and zone, and (when schemas are
/// enforced) each container environment's schema, as they evolve with just-in-time writes.
/// Saved as JSON with `--data`; files written before schemas existed still load.
struct EmulatorDatabase: Codable {
    /// `container/environment/database/zone` to records by name.
    var zones: [String: [String: WireRecord]] = [:]
    var nextTag = 1
    /// `container/environment` to its schema, once a write or a seed changed it.
    var schemas: [String: ContainerSchema] = [:]
    /// `zone` -> `field=value` -> record names: EQUALS and IN cost what they return. Derived, not saved.
    private var index: [String: [String: Set<String>]] = [:]
    /// `zone` -> record type -> its record names in order: a query's page is read from here. Derived, not saved.
    private(set) var order: [String: [String: SortedNames]] = [:]

    enum CodingKeys: String, CodingKey { case zones, nextTag, schemas }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zones = try container.decode([String: [String: WireRecord]].self, forKey: .zones)
        nextTag = try container.decode(Int.self, forKey: .nextTag)
        schemas = try container.decodeIfPresent([String: ContainerSchema].self, forKey: .schemas) ?? [:]
        for (zone, records) in zones {
            for record in records.values { addToIndex(record, zone: zone) }
            order[zone] = Dictionary(grouping: records.values.filter { $0.recordType != nil }, by: { $0.recordType ?? "" })
                .mapValues { SortedNames($0.map(\.recordName)) }
        }
    }

    // MARK: Schema

    /// The schema a location answers with: nil when schemas are not enforced.
    func schema(at location: Location, mode: SchemaMode) -> ContainerSchema? {
        guard case .enforced(let development, let production) = mode else { return nil }
        return schemas[location.schemaKey] ?? (location.isProduction ? production : development)
    }

    /// A record type's schema for security checks: the default roles when not enforced.
    func recordType(_ name: String, at location: Location, mode: SchemaMode) -> RecordTypeSchema {
        schema(at: location, mode: mode)?.types[name] ?? RecordTypeSchema()
    }

    /// Applies the schemas given at start to every environment the saved file holds a schema
    /// of: development takes `development`'s additions, production `production`'s.
    mutating func importSchemas(_ mode: SchemaMode) throws(SchemaImportConflict) {
        guard case .enforced(let development, let production) = mode else { return }
        for (key, held) in schemas {
            schemas[key] = try held.importing(key.hasSuffix("/production") ? production : development)
        }
    }

    // MARK: Index

    private static func indexKeys(_ record: WireRecord) -> [String] {
        (record.fields ?? [:]).compactMap { field, value in value.value.comparable.map { "\(field)=\($0)" } }
    }

    private mutating func addToIndex(_ record: WireRecord, zone: String) {
        for key in Self.indexKeys(record) { index[zone, default: [:]][key, default: []].insert(record.recordName) }
    }

    private mutating func removeFromIndex(_ record: WireRecord, zone: String) {
        for key in Self.indexKeys(record) { index[zone]?[key]?.remove(record.recordName) }
    }

    mutating func put(_ record: WireRecord?, named name: String, zone: String) {
        let existing = zones[zone]?[name]
        if let existing { removeFromIndex(existing, zone: zone) }
        zones[zone, default: [:]][name] = record
        if let record { addToIndex(record, zone: zone) }
        guard existing?.recordType != record?.recordType else { return }
        if let type = existing?.recordType { order[zone]?[type]?.remove(name) }
        if let type = record?.recordType { order[zone, default: [:]][type, default: SortedNames()].insert(name) }
    }

    /// Records that can match: from the index when a filter is EQUALS or IN on a field, nil when
    /// none is (every record of the type can).
    func candidates(_ filters: [QueryRequestBody.Filter], zone: String) -> [WireRecord]? {
        let records = zones[zone] ?? [:]
        guard let filter = filters.first(where: { ["EQUALS", "IN"].contains($0.comparator) && !Self.isRecordNameField($0.fieldName) }) else {
            return nil
        }
        let values = filter.comparator == "IN" ? (filter.fieldValue.value.array ?? []).compactMap(\.comparable)
                                               : [filter.fieldValue.value.comparable].compactMap { $0 }
        var names = Set<String>()
        for value in values { names.formUnion(index[zone]?["\(filter.fieldName)=\(value)"] ?? []) }
        return names.compactMap { records[$0] }
    }

    /// `___recordID` is the record's name (a REFERENCE in filters); `recordName` is accepted when
    /// schemas are not enforced, as the emulator always did.
    static func isRecordNameField(_ name: String) -> Bool { name == "___recordID" || name == "recordName" }

    // MARK: Seeding

    /// Records written earlier by someone (their `created` says who; the developer when absent):
    /// the schema grows to hold them, as it would have when they were written.
    mutating func seed(_ records: [WireRecord], at location: Location, mode: SchemaMode, developer: String) {
        var schema = self.schema(at: location, mode: mode)
        for var record in records {
            guard let type = record.recordType else { continue }
            if var grown = schema, (try? SchemaRules.admit(record, type: type, into: &grown, production: false)) != nil { schema = grown }
            let stamp = WireRecord.Stamp(timestamp: record.created?.timestamp ?? 0,
                                         userRecordName: record.created?.userRecordName ?? developer)
            record.created = stamp
            record.modified = record.modified ?? stamp
            if record.recordChangeTag == nil {
                record.recordChangeTag = String(nextTag, radix: 36)
                nextTag += 1
            }
            put(record, named: record.recordName, zone: location.zoneKey)
        }
        if let schema { schemas[location.schemaKey] = schema }
    }
}
