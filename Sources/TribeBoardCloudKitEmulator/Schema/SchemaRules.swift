import Foundation

/// A refusal, as the server words it: the error code and Apple's reason text.
struct Refusal: Error, Equatable {
    let code: ServerErrorCode
    let reason: String

    init(_ code: ServerErrorCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// How the emulator treats schemas: not at all (every type exists, every field is indexed, as
/// the emulator always did), or as a real container does, starting from the given schemas.
public enum SchemaMode: Sendable, Equatable {
    case permissive
    case enforced(development: ContainerSchema, production: ContainerSchema)
}

/// What a schema says about queries and writes: the checks CloudKit makes, with its texts.
enum SchemaRules {
    /// A query: the type must exist and have at least one index ("Type is not marked indexable",
    /// native CloudKit's text for a type made on the fly); each filter's field must exist ("Did not
    /// find field", a captured Web Services answer) and be QUERYABLE; an unfiltered query needs
    /// `___recordID` QUERYABLE (CloudKit calls it recordName in the text); sorts need SORTABLE.
    /// Apple does not document which check comes first when several fail: the order here is
    /// type, indexes, fields, as the texts go from the whole to the part.
    static func checkQuery(_ query: QueryRequestBody.Query, schema: ContainerSchema) throws(Refusal)
    {
        guard let type = schema.types[query.recordType] else {
            throw Refusal(.badRequest, "Did not find record type: \(query.recordType)")
        }
        guard type.fields.values.contains(where: { $0.queryable || $0.sortable || $0.searchable })
        else {
            throw Refusal(.badRequest, "Type is not marked indexable: \(query.recordType)")
        }
        let filters = query.filterBy ?? []
        if filters.isEmpty, type.fields["___recordID"]?.queryable != true {
            throw Refusal(.badRequest, "Field 'recordName' is not marked queryable")
        }
        for filter in filters {
            // `recordName` is how CloudKit's texts call `___recordID`, not a field: as before, "not
            // marked queryable".
            guard let field = type.fields[filter.fieldName] else {
                guard EmulatorDatabase.isRecordNameField(filter.fieldName) else {
                    throw Refusal(
                        .badRequest,
                        "Did not find field: '\(filter.fieldName)' in type: '\(query.recordType)'")
                }
                throw Refusal(.badRequest, "Field '\(filter.fieldName)' is not marked queryable")
            }
            guard field.queryable else {
                throw Refusal(.badRequest, "Field '\(filter.fieldName)' is not marked queryable")
            }
            // The value's type must fit the field's: `___recordID` takes a REFERENCE, IN a `_LIST`.
            let expected: String
            switch filter.comparator {
            case "IN", "NOT_IN": expected = field.type + "_LIST"
            case "LIST_CONTAINS", "NOT_LIST_CONTAINS":
                expected = field.type.replacingOccurrences(of: "_LIST", with: "")
            default: expected = field.type
            }
            if let sent = filter.fieldValue.type, sent != expected {
                throw Refusal(.badRequest, "Field '\(filter.fieldName)' is of type \(field.type); "
                    + "a \(filter.comparator) filter takes a \(expected) value, not \(sent)")
            }
        }
        for sort in query.sortBy ?? [] where type.fields[sort.fieldName]?.sortable != true {
            throw Refusal(.badRequest, "Field '\(sort.fieldName)' is not marked sortable")
        }
    }

    /// Checks that hold whatever the schema: known comparators, and list values for IN / NOT_IN.
    static func checkFilters(_ filters: [QueryRequestBody.Filter]) throws(Refusal) {
        let comparators: Set<String> = [
            "EQUALS", "NOT_EQUALS", "IN", "NOT_IN", "BEGINS_WITH", "NOT_BEGINS_WITH", "LESS_THAN",
            "LESS_THAN_OR_EQUALS",
            "GREATER_THAN", "GREATER_THAN_OR_EQUALS", "LIST_CONTAINS", "NOT_LIST_CONTAINS"
        ]
        for filter in filters {
            guard comparators.contains(filter.comparator) else {
                throw Refusal(.badRequest, "Unknown comparator \(filter.comparator)")
            }
            if ["IN", "NOT_IN"].contains(filter.comparator) {
                let listType = filter.fieldValue.type.map { $0.hasSuffix("_LIST") } ?? true
                guard listType, filter.fieldValue.value.array != nil else {
                    throw Refusal(.badRequest, "Comparator \(filter.comparator) on field '\(filter.fieldName)' takes a list value "
                                  + "(such as STRING_LIST), not \(filter.fieldValue.type ?? "a single value")")
                }
            }
        }
    }

    /// A write: development adds a missing type or field just in time (without indexes, as
    /// CloudKit does); production refuses what was not deployed. A field's type never changes.
    static func admit(_ record: WireRecord, type name: String, into schema: inout ContainerSchema,
                      production: Bool) throws(Refusal) {
        let written = try fieldTypes(record)
        guard var type = schema.types[name] else {
            guard !production else {
                throw Refusal(.badRequest, "Cannot create new type \(name) in production schema")
            }
            schema.types[name] = .justInTime(fields: written)
            return
        }
        for (field, valueType) in written.sorted(by: { $0.key < $1.key }) {
            if let existing = type.fields[field] {
                guard existing.type == valueType else {
                    throw Refusal(.badRequest, "invalid attempt to set value type \(valueType) for field '\(field)' for type '\(name)', "
                                  + "defined to be: \(existing.type)")
                }
                continue
            }
            guard !production else {
                throw Refusal(.badRequest, "Cannot create or modify field '\(field)' in record '\(name)' in production schema")
            }
            type.fields[field] = SchemaField(type: valueType)
        }
        schema.types[name] = type
    }

    /// Each field's type: as sent, or inferred from the value as the server does.
    static func fieldTypes(_ record: WireRecord) throws(Refusal) -> [String: String] {
        var types: [String: String] = [:]
        for (name, field) in record.fields ?? [:] {
            guard !name.hasPrefix("___") else {
                throw Refusal(
                    .badRequest, "Field '\(name)' is a system field and cannot be written")
            }
            guard let type = field.type ?? inferredType(field.value) else {
                throw Refusal(
                    .badRequest, "Cannot infer the type of field '\(name)'; send its type")
            }
            types[name] = type
        }
        return types
    }

    private static func inferredType(_ value: WireValue) -> String? {
        switch value {
        case .string: return "STRING"
        case .number(let number): return number == number.rounded() ? "INT64" : "DOUBLE"
        case .object(let object): return object["recordName"] != nil ? "REFERENCE" : nil
        case .array(let items): return items.first.flatMap(inferredType).map { $0 + "_LIST" }
        default: return nil
        }
    }

    /// The public database's security roles: creating needs CREATE for `_icloud` or `_world`;
    /// changing or deleting a record needs WRITE for everyone, or `_creator` and being its creator.
    /// A server-to-server key acts as its developer, who is the creator of what it created.
    static func checkWrite(
        _ operation: OperationType, existing: WireRecord?, type: RecordTypeSchema,
        caller: String
    ) throws(Refusal) {
        guard let existing else {
            if operation == .delete || operation == .forceDelete { return }
            guard type.grantsEveryone(.create) || type.grants["_creator"]?.contains(.create) == true
            else {
                throw Refusal(.accessDenied, "CREATE operation not permitted")
            }
            return
        }
        if type.grantsEveryone(.write) { return }
        let creator = existing.created?.userRecordName ?? caller
        guard type.grants["_creator"]?.contains(.write) == true, creator == caller else {
            throw Refusal(.accessDenied, "WRITE operation not permitted")
        }
    }

    /// Whether `caller` may read a record of this type: everyone by default, else only its creator.
    static func canRead(_ record: WireRecord, type: RecordTypeSchema, caller: String) -> Bool {
        type.grantsEveryone(.read)
            || (type.grants["_creator"]?.contains(.read) == true
                && (record.created?.userRecordName ?? caller) == caller)
    }
}
