import Foundation

/// records/query with the semantics Apple documents, read through the zone's index (`ZoneIndex`).
extension EmulatorDatabase {
    /// A page of a query, and how many index entries were read to make it (what the page cost).
    struct QueryPage {
        var records: [WireRecord]
        var marker: String?
        var examined = 0
    }

    /// Where a query without `sortBy` stands: after a record name (a walk of the type's names, or
    /// IN), or after an entry of a field's index (EQUALS, BEGINS_WITH).
    enum Cursor: Equatable {
        case name(String)
        case key(IndexKey)
    }

    /// How a query narrows what it reads: a range of one field's index, the records holding
    /// any of some values (IN), or a field's index with gaps stepped over (NOT_BEGINS_WITH) then
    /// the records not in that index; none walks every name of the type.
    enum Narrowing {
        case range(field: String, IndexRange)
        case anyOf(field: String, values: [String])
        case outside(field: String, gaps: [Range<IndexKey>])

        /// The first EQUALS or IN on a field, else the first BEGINS_WITH, else the NOT_BEGINS_WITH
        /// filters on the first field one names.
        init?(_ filters: [QueryRequestBody.Filter]) {
            let onField = filters.filter { !EmulatorDatabase.isRecordNameField($0.fieldName) }
            if let filter = onField.first(where: { ["EQUALS", "IN"].contains($0.comparator) }) {
                let value = filter.fieldValue.value
                if filter.comparator == "IN" {
                    self = .anyOf(
                        field: filter.fieldName,
                        values: (value.array ?? []).compactMap(\.comparable))
                } else {
                    guard let wanted = value.comparable else { return nil }
                    self = .range(field: filter.fieldName, .equals(wanted))
                }
            } else if let filter = onField.first(where: { $0.comparator == "BEGINS_WITH" }),
                let prefix = filter.fieldValue.value.comparable
            {
                self = .range(field: filter.fieldName, .beginsWith(prefix))
            } else if let field = onField.first(where: { $0.comparator == "NOT_BEGINS_WITH" })?
                .fieldName
            {
                // A prefix that is no string matches nothing, the empty one every value: the walk
                // answers those.
                let prefixes = onField.filter {
                    $0.fieldName == field && $0.comparator == "NOT_BEGINS_WITH"
                }
                .map { $0.fieldValue.value.comparable }
                guard prefixes.allSatisfy({ $0.map { !$0.isEmpty } ?? false }) else { return nil }
                self = .outside(
                    field: field,
                    gaps: IndexRange.merged(prefixes.compactMap { $0.flatMap(IndexRange.gap) }))
            } else {
                return nil
            }
        }
    }

    func query(_ request: QueryRequestBody, at location: Location, policy: ContainerPolicy,
               caller: Caller) throws(Refusal) -> QueryPage {
        let limit = request.resultsLimit ?? 200
        guard (1...200).contains(limit) else {
            throw Refusal(.badRequest, "resultsLimit must be between 1 and 200, got \(limit)")
        }
        let filters = request.query.filterBy ?? []
        try SchemaRules.checkFilters(filters)
        if let schema = schema(at: location, mode: policy.schemaMode) {
            try SchemaRules.checkQuery(request.query, schema: schema)
        }
        let typeName = request.query.recordType
        let type = recordType(typeName, at: location, mode: policy.schemaMode)
        let zone = location.zoneKey
        let records = zones[zone] ?? [:]
        let index = indexes[zone] ?? ZoneIndex()
        let wanted = { (record: WireRecord) in
            record.recordType == typeName && filters.allSatisfy { Self.matches(record, filter: $0) }
                && SchemaRules.canRead(record, type: type, caller: caller.userRecordName)
                && policy.indexed(record, now: caller.now)
        }
        let narrowing = Narrowing(filters)
        if let sorts = request.query.sortBy, !sorts.isEmpty {
            let names =
                narrowing.map { index.names(of: typeName, $0) }
                ?? Array(
                    index.names[typeName]?.values(after: nil) ?? SortedList().values(after: nil))
            return try Self.sortedPage(
                names.compactMap { records[$0] }.filter(wanted), by: sorts, limit: limit,
                marker: request.continuationMarker)
        }
        // A page starts after the last record of the previous one: the marker says which (opaque
        // to the client, as Apple's is). A marker this server did not give (or gave another kind
        // of query) is refused, never read as "from the start": a client that garbled one would
        // otherwise page through the same records for ever.
        let after = try request.continuationMarker.map(Self.cursor)
        let entries = try Self.entries(of: typeName, narrowing, after: after, records, index)
        return Self.page(of: entries, records, wanted: wanted, limit: limit)
    }

    /// The index entries a query without `sortBy` reads, in order, from where its marker stands.
    private static func entries(of typeName: String, _ narrowing: Narrowing?, after: Cursor?,
                                _ records: [String: WireRecord], _ index: ZoneIndex)
        throws(Refusal) -> AnySequence<(name: String, cursor: Cursor)> {
        switch (narrowing, after) {
        case (.range(let field, let range)?, .key?), (.range(let field, let range)?, nil):
            let from: IndexKey? = if case .key(let key)? = after { key } else { nil }
            return AnySequence(
                index.keys(of: typeName, field: field, in: range, after: from).lazy.map {
                    ($0.name, .key($0))
                })
        case (.outside(let field, let gaps)?, .key?), (.outside(let field, let gaps)?, nil):
            let from: IndexKey? = if case .key(let key)? = after { key } else { nil }
            let indexed = index.keys(of: typeName, field: field, outside: gaps, after: from).lazy
                .map { (name: $0.name, cursor: Cursor.key($0)) }
            return AnySequence(
                [AnySequence(indexed), lacking(field, of: typeName, records, index, after: nil)]
                    .joined())
        case (.outside(let field, _)?, .name(let from)?):
            return lacking(field, of: typeName, records, index, after: from)
        case (.anyOf?, .name?), (.anyOf?, nil), (nil, .name?), (nil, nil):
            let from: String? = if case .name(let name)? = after { name } else { nil }
            let names =
                narrowing.map {
                    AnySequence(
                        index.names(of: typeName, $0).filter { name in
                            from.map { name > $0 } ?? true
                        }.sorted())
                }
                ?? AnySequence(
                    index.names[typeName]?.values(after: from) ?? SortedList().values(after: nil))
            return AnySequence(names.lazy.map { ($0, .name($0)) })
        default:
            throw unknownMarker
        }
    }

    /// The first `limit` wanted records of `entries`, and a marker when one more exists.
    private static func page(
        of entries: AnySequence<(name: String, cursor: Cursor)>, _ records: [String: WireRecord],
        wanted: (WireRecord) -> Bool, limit: Int
    ) -> QueryPage {
        var page = QueryPage(records: [])
        var last: Cursor?
        for (name, cursor) in entries {
            page.examined += 1
            guard let record = records[name], wanted(record) else { continue }
            // One more match exists: the marker leads to it.
            if page.records.count == limit {
                page.marker = last.map(Self.marker)
                return page
            }
            page.records.append(record)
            last = cursor
        }
        return page
    }

    /// After a field's index, the type's records not in it (no such field, or a value filters
    /// cannot compare), by name; none to walk when every record of the type is in the index.
    private static func lacking(
        _ field: String, of type: String, _ records: [String: WireRecord], _ index: ZoneIndex,
        after: String?
    ) -> AnySequence<(name: String, cursor: Cursor)> {
        guard index.lacks(type, field: field), let names = index.names[type] else {
            return AnySequence([])
        }
        return AnySequence(
            names.values(after: after).lazy
                .filter { records[$0]?.fields?[field]?.value.comparable == nil }
                .map { (name: $0, cursor: Cursor.name($0)) })
    }

    private static let unknownMarker = Refusal(
        .badRequest, "continuationMarker is not one this server gave")
    private static let namePrefix = "after:"
    private static let keyPrefix = "key:"

    private static func marker(_ cursor: Cursor) -> String {
        switch cursor {
        case .name(let name): return Data((namePrefix + name).utf8).base64EncodedString()
        case .key(let key):
            let pair = (try? JSONEncoder().encode([key.value, key.name])) ?? Data()
            return (Data(keyPrefix.utf8) + pair).base64EncodedString()
        }
    }

    private static func cursor(_ marker: String) throws(Refusal) -> Cursor {
        guard let decoded = Data(base64Encoded: marker) else { throw unknownMarker }
        let text = String(decoding: decoded, as: UTF8.self)
        if text.hasPrefix(namePrefix) { return .name(String(text.dropFirst(namePrefix.count))) }
        guard text.hasPrefix(keyPrefix),
            let pair = try? JSONDecoder().decode(
                [String].self, from: decoded.dropFirst(keyPrefix.utf8.count)),
            pair.count == 2
        else { throw unknownMarker }
        return .key(IndexKey(value: pair[0], name: pair[1]))
    }

    /// A query with sortBy: the whole match sorted, the marker an offset into it.
    private static func sortedPage(
        _ matching: [WireRecord], by sorts: [QueryRequestBody.Sort], limit: Int,
        marker: String?
    ) throws(Refusal) -> QueryPage {
        let sorted = Self.sorted(matching.sorted { $0.recordName < $1.recordName }, by: sorts)
        let offset = marker.map {
            Data(base64Encoded: $0).flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? -1
        }
        let start = offset ?? 0
        guard start >= 0, start <= sorted.count else { throw unknownMarker }
        let page = Array(sorted[start...].prefix(limit))
        let end = start + page.count
        return QueryPage(
            records: page,
            marker: end < sorted.count ? Data(String(end).utf8).base64EncodedString() : nil,
            examined: matching.count)
    }

    private static func sorted(_ records: [WireRecord], by sorts: [QueryRequestBody.Sort])
        -> [WireRecord]
    {
        records.sorted { left, right in
            for sort in sorts {
                let a = left.fields?[sort.fieldName]?.value,
                    b = right.fields?[sort.fieldName]?.value
                guard a != b else { continue }
                let ascending = sort.ascending ?? true
                switch (a?.number, b?.number) {
                case (let x?, let y?): return ascending ? x < y : x > y
                default:
                    return ascending
                        ? (a?.comparable ?? "") < (b?.comparable ?? "")
                        : (a?.comparable ?? "") > (b?.comparable ?? "")
                }
            }
            return false
        }
    }

    static func matches(_ record: WireRecord, filter: QueryRequestBody.Filter) -> Bool {
        let value = filter.fieldValue.value
        let actual =
            isRecordNameField(filter.fieldName)
            ? record.recordName : record.fields?[filter.fieldName]?.value.comparable
        switch filter.comparator {
        case "EQUALS": return actual != nil && actual == value.comparable
        case "NOT_EQUALS": return actual != value.comparable
        case "IN", "NOT_IN":
            let contained =
                actual.map { (value.array ?? []).compactMap(\.comparable).contains($0) } ?? false
            return filter.comparator == "IN" ? contained : !contained
        case "BEGINS_WITH":
            guard let actual, let prefix = value.comparable else { return false }
            return actual.hasPrefix(prefix)
        case "NOT_BEGINS_WITH":
            // A record without the field does not begin with the prefix, as NOT_EQUALS counts it.
            guard let prefix = value.comparable else { return false }
            return !(actual?.hasPrefix(prefix) ?? false)
        case "LESS_THAN", "LESS_THAN_OR_EQUALS", "GREATER_THAN", "GREATER_THAN_OR_EQUALS":
            guard let x = record.fields?[filter.fieldName]?.value.number, let y = value.number
            else { return false }
            switch filter.comparator {
            case "LESS_THAN": return x < y
            case "LESS_THAN_OR_EQUALS": return x <= y
            case "GREATER_THAN": return x > y
            default: return x >= y
            }
        default: return false
        }
    }
}

extension ZoneIndex {
    /// The names of `type`'s records a narrowing can hold, in no order.
    func names(of type: String, _ narrowing: EmulatorDatabase.Narrowing) -> [String] {
        switch narrowing {
        case .range(let field, let range):
            return keys(of: type, field: field, in: range, after: nil).map(\.name)
        case .anyOf(let field, let values):
            return Array(
                Set(
                    values.flatMap {
                        keys(of: type, field: field, in: .equals($0), after: nil).map(\.name)
                    }))
        case .outside(let field, let gaps):
            // Records not in the index are not told apart here: the caller checks every filter.
            guard !lacks(type, field: field) else {
                return self.names[type].map { Array($0.values(after: nil)) } ?? []
            }
            return keys(of: type, field: field, outside: gaps, after: nil).map(\.name)
        }
    }
}
