import Foundation

/// How the container answers, chosen at start.
struct ContainerPolicy {
    var schemaMode: SchemaMode = .permissive
    /// What a create of a name that exists answers: EXISTS as Web Services documents, or CONFLICT
    /// (native CloudKit's serverRecordChanged, "record to insert already exists").
    var repeatedCreate: ServerErrorCode = .exists
    /// Whether a create of a name held by a record the caller may not change answers
    /// ACCESS_DENIED rather than `repeatedCreate`. Apple does not document which (see
    /// docs/emulator.md); by default existence is checked first, so every caller hears EXISTS.
    var accessDeniedOnForeignCreate = false
    /// How far records/query's index lags behind writes, in milliseconds. Apple: "Query indexes
    /// update asynchronously so they aren't always current". Lookups and creates see every write
    /// at once (a record name is unique when it is written); only queries miss recent ones.
    var indexLagMilliseconds: Int64 = 0

    /// Whether a query's index holds `record` yet: a record written (created or changed) less than
    /// the lag ago is missing from query results altogether, whatever the filter.
    func indexed(_ record: WireRecord, now: Int64) -> Bool {
        guard indexLagMilliseconds > 0,
            let written = record.modified?.timestamp ?? record.created?.timestamp
        else { return true }
        return written <= now - indexLagMilliseconds
    }
}

/// records/lookup and records/modify with the semantics Apple documents (records/query:
/// `Query.swift`).
extension EmulatorDatabase {
    // MARK: lookup

    /// Each name's record, read from the zone itself (no index, no lag), under the same READ
    /// grants a query honours: a record the caller may not read is ACCESS_DENIED.
    func lookup(_ names: [String], at location: Location, policy: ContainerPolicy, caller: Caller)
        -> [RecordEntry]
    {
        names.map { name in
            guard let record = zones[location.zoneKey]?[name] else {
                return .error(
                    RecordErrorBody(
                        recordName: name, reason: "Record not found", serverErrorCode: .notFound,
                        uuid: UUID().uuidString))
            }
            let type = recordType(record.recordType ?? "", at: location, mode: policy.schemaMode)
            guard SchemaRules.canRead(record, type: type, caller: caller.userRecordName) else {
                return .error(
                    RecordErrorBody(
                        recordName: name, reason: "READ operation not permitted",
                        serverErrorCode: .accessDenied,
                        uuid: UUID().uuidString))
            }
            return .record(record)
        }
    }

    // MARK: modify

    mutating func modify(
        _ request: ModifyRequestBody, at location: Location, policy: ContainerPolicy,
        caller: Caller
    ) throws(Refusal) -> [RecordEntry] {
        let operations = request.operations
        guard operations.count <= 200 else {
            throw Refusal(
                .badRequest,
                "a request holds at most 200 operations, this one has \(operations.count)")
        }
        var seen = Set<String>()
        for operation in operations
        where !operation.record.recordName.isEmpty
            && !seen.insert(operation.record.recordName).inserted
        {
            throw Refusal(
                .badRequest, "record \(operation.record.recordName) appears twice in one request")
        }
        // Atomic batches exist only in custom zones, as documented; only they need a copy to roll
        // back to.
        let before = (request.atomic ?? false) && location.zone != "_defaultZone" ? self : nil
        var results: [RecordEntry] = []
        for operation in operations {
            do throws(Refusal) {
                guard let kind = OperationType(rawValue: operation.operationType) else {
                    throw Refusal(.badRequest, "unknown operationType \(operation.operationType)")
                }
                results.append(
                    .record(
                        try apply(
                            kind, operation.record, at: location, policy: policy, caller: caller)))
            } catch {
                results.append(
                    .error(
                        RecordErrorBody(
                            recordName: operation.record.recordName, reason: error.reason,
                            serverErrorCode: error.code, uuid: UUID().uuidString)))
            }
        }
        guard let before, results.contains(where: \.isError) else { return results }
        self = before
        return results.map { entry in
            guard case .record(let record) = entry else { return entry }
            return .error(
                RecordErrorBody(
                    recordName: record.recordName,
                    reason: "another operation in the atomic batch failed",
                    serverErrorCode: .atomicError, uuid: UUID().uuidString))
        }
    }

    private mutating func apply(
        _ kind: OperationType, _ sent: WireRecord, at location: Location, policy: ContainerPolicy,
        caller: Caller
    ) throws(Refusal) -> WireRecord {
        var incoming = sent
        // "A create without a name gets one assigned."
        if kind == .create, incoming.recordName.isEmpty { incoming.recordName = UUID().uuidString }
        let name = incoming.recordName
        if kind != .delete, kind != .forceDelete { try RecordNameRules.check(name) }
        let zone = location.zoneKey
        let existing = zones[zone]?[name]
        // Existence before permission: a name is unique in its zone whoever holds it, so a create
        // of a taken name is refused as such (unless told to answer as a permission).
        if kind == .create, let existing {
            let holder = recordType(
                existing.recordType ?? "", at: location, mode: policy.schemaMode)
            if policy.accessDeniedOnForeignCreate {
                try SchemaRules.checkWrite(
                    .update, existing: existing, type: holder, caller: caller.userRecordName)
            }
            throw policy.repeatedCreate == .conflict
                ? Refusal(.conflict, "record to insert already exists")
                : Refusal(.exists, "record \(name) already exists")
        }
        let typeName = incoming.recordType ?? existing?.recordType
        let type = recordType(typeName ?? "", at: location, mode: policy.schemaMode)
        try SchemaRules.checkWrite(
            kind, existing: existing, type: type, caller: caller.userRecordName)
        switch kind {
        case .create: break
        case .update, .replace:
            guard let existing else { throw Refusal(.notFound, "Record not found") }
            guard incoming.recordChangeTag == existing.recordChangeTag else {
                throw Self.changed(name, existing)
            }
        case .delete:
            // Documented with the record name alone. A change tag sent with it is checked as an
            // update's is (undocumented; docs/emulator.md says what follows if Apple ignores it).
            guard let existing else { throw Refusal(.notFound, "Record not found") }
            if let tag = incoming.recordChangeTag, tag != existing.recordChangeTag {
                throw Self.changed(name, existing)
            }
        case .forceUpdate, .forceReplace, .forceDelete: break
        }
        if kind == .delete || kind == .forceDelete {
            put(nil, named: name, zone: zone)
            return .deletedMarker(name)
        }
        return try store(
            incoming, replacing: existing, merge: kind == .update || kind == .forceUpdate,
            at: location, policy: policy, caller: caller)
    }

    private static func changed(_ name: String, _ existing: WireRecord) -> Refusal {
        Refusal(
            .conflict,
            "record \(name) has changed (change tag \(existing.recordChangeTag ?? "none"))")
    }

    private mutating func store(
        _ incoming: WireRecord, replacing existing: WireRecord?, merge: Bool, at location: Location,
        policy: ContainerPolicy, caller: Caller
    ) throws(Refusal) -> WireRecord {
        guard let typeName = incoming.recordType ?? existing?.recordType else {
            throw Refusal(.badRequest, "record \(incoming.recordName) has no recordType")
        }
        if var schema = schema(at: location, mode: policy.schemaMode) {
            try SchemaRules.admit(
                incoming, type: typeName, into: &schema, production: location.isProduction)
            schemas[location.schemaKey] = schema
        } else {
            _ = try SchemaRules.fieldTypes(incoming)
        }
        var fields = merge ? (existing?.fields ?? [:]) : [:]
        for (key, value) in incoming.fields ?? [:] {
            fields[key] = WireRecord.Field(value: value.value, type: try Self.type(of: value))
        }
        for (key, field) in fields where field.type == "REFERENCE" {
            guard let target = field.value.object?["recordName"]?.string,
                zones[location.zoneKey]?[target] != nil || target == incoming.recordName
            else {
                throw Refusal(
                    .validatingReferenceError, "field \(key) refers to a record that does not exist"
                )
            }
        }
        let size = (try? JSONEncoder().encode(fields).count) ?? 0
        guard size <= 1_000_000 else { throw Refusal(.badRequest, "record is larger than 1 MB") }
        var record = WireRecord(
            recordName: incoming.recordName, recordType: typeName, fields: fields)
        record.recordChangeTag = String(nextTag, radix: 36)
        nextTag += 1
        let stamp = WireRecord.Stamp(timestamp: caller.now, userRecordName: caller.userRecordName)
        record.created = existing?.created ?? stamp
        record.modified = stamp
        put(record, named: incoming.recordName, zone: location.zoneKey)
        return record
    }

    /// Responses always carry each field's type.
    private static func type(of field: WireRecord.Field) throws(Refusal) -> String {
        let probe = WireRecord(recordName: "", recordType: nil, fields: ["f": field])
        return try SchemaRules.fieldTypes(probe)["f"] ?? "STRING"
    }
}
