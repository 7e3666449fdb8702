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
    /// `zone` -> what its queries read (each type's names, each field's index). Derived, not saved.
    private(set) var indexes: [String: ZoneIndex] = [:]

    enum CodingKeys: String, CodingKey { case zones, nextTag, schemas }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zones = try container.decode([String: [String: WireRecord]].self, forKey: .zones)
        nextTag = try container.decode(Int.self, forKey: .nextTag)
        schemas =
            try container.decodeIfPresent([String: ContainerSchema].self, forKey: .schemas) ?? [:]
        indexes = zones.mapValues { ZoneIndex($0.values) }
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
            schemas[key] = try held.importing(
                key.hasSuffix("/production") ? production : development)
        }
    }

    // MARK: Index

    mutating func put(_ record: WireRecord?, named name: String, zone: String) {
        let existing = zones[zone]?[name]
        zones[zone, default: [:]][name] = record
        indexes[zone, default: ZoneIndex()].replace(existing, with: record)
    }

    /// `___recordID` is the record's name (a REFERENCE in filters); `recordName` is accepted when
    /// schemas are not enforced, as the emulator always did.
    static func isRecordNameField(_ name: String) -> Bool {
        name == "___recordID" || name == "recordName"
    }

    // MARK: Seeding

    /// Records written earlier by someone (their `created` says who; the developer when absent):
    /// the schema grows to hold them, as it would have when they were written.
    mutating func seed(
        _ records: [WireRecord], at location: Location, mode: SchemaMode, developer: String
    ) {
        var schema = self.schema(at: location, mode: mode)
        for var record in records {
            guard let type = record.recordType else { continue }
            if var grown = schema,
                (try? SchemaRules.admit(record, type: type, into: &grown, production: false)) != nil
            {
                schema = grown
            }
            let stamp = WireRecord.Stamp(
                timestamp: record.created?.timestamp ?? 0,
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
