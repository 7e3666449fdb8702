/// One entry of a field's index: the value as filters compare it (`WireValue.comparable`), then
/// the record's name, so that the records sharing a value are in name order.
struct IndexKey: Comparable {
    var value: String
    var name: String

    static func < (left: IndexKey, right: IndexKey) -> Bool {
        left.value != right.value ? left.value < right.value : left.name < right.name
    }
}

/// What a zone's queries read, kept beside its records (derived, never saved), as CloudKit keeps
/// an index of each QUERYABLE field: each record type's names in order, and for each type and
/// field, the values filters can compare (strings, numbers, references), sorted. EQUALS and
/// BEGINS_WITH are then a range of one field's index, so a page costs what it returns rather
/// than a walk of the whole type. Every field is indexed: whether a field may be filtered on is
/// the schema's question (`SchemaRules.checkQuery`), asked before any index is read.
struct ZoneIndex {
    /// Record type -> its record names in order.
    private(set) var names: [String: SortedList<String>] = [:]
    /// Record type -> field -> its index.
    private var fields: [String: [String: SortedList<IndexKey>]] = [:]

    init() {}

    /// Loading a zone: one sort per list rather than an insert per record.
    init(_ records: some Sequence<WireRecord>) {
        var names: [String: [String]] = [:]
        var keys: [String: [String: [IndexKey]]] = [:]
        for record in records {
            guard let type = record.recordType else { continue }
            names[type, default: []].append(record.recordName)
            for (field, value) in Self.values(record) {
                keys[type, default: [:]][field, default: []].append(
                    IndexKey(value: value, name: record.recordName))
            }
        }
        self.names = names.mapValues { SortedList($0) }
        fields = keys.mapValues { $0.mapValues { SortedList($0) } }
    }

    /// Each field's value as filters compare it; fields without one (lists, booleans, assets)
    /// match no EQUALS, IN or BEGINS_WITH, so the index leaves them out.
    private static func values(_ record: WireRecord) -> [String: String] {
        (record.fields ?? [:]).compactMapValues { $0.value.comparable }
    }

    /// `old` (the record a name held) is replaced by `new` (nil: deleted); only what changed moves.
    mutating func replace(_ old: WireRecord?, with new: WireRecord?) {
        let oldType = old?.recordType, newType = new?.recordType
        let name = new?.recordName ?? old?.recordName ?? ""
        if oldType != newType {
            if let oldType { names[oldType]?.remove(name) }
            if let newType { names[newType, default: SortedList()].insert(name) }
        }
        let before = old.map(Self.values) ?? [:], after = new.map(Self.values) ?? [:]
        if let oldType {
            for (field, value) in before where oldType != newType || after[field] != value {
                fields[oldType]?[field]?.remove(IndexKey(value: value, name: name))
            }
        }
        if let newType {
            for (field, value) in after where oldType != newType || before[field] != value {
                fields[newType, default: [:]][field, default: SortedList()].insert(
                    IndexKey(value: value, name: name))
            }
        }
    }

    /// The keys of `type`'s index of `field` that `range` can hold, in order, from the first above
    /// `after` (a continuation) or from the range's start.
    func keys(of type: String, field: String, in range: IndexRange, after: IndexKey?)
        -> AnySequence<IndexKey>
    {
        guard let index = fields[type]?[field] else { return AnySequence([]) }
        let start = range.start.map { IndexKey(value: $0, name: "") }
        let from: AnySequence<IndexKey>
        if let after, start.map({ $0 <= after }) ?? true {
            from = AnySequence(index.values(after: after))
        } else {
            from =
                start.map { AnySequence(index.values(from: $0)) }
                ?? AnySequence(index.values(after: nil))
        }
        guard let end = range.end else { return from }
        return AnySequence(from.lazy.prefix(while: { range.holds($0.value, end: end) }))
    }

    /// The keys of `type`'s index of `field` outside `gaps` (sorted, apart), in order, from the
    /// first above `after`: a gap is stepped over, not read.
    func keys(of type: String, field: String, outside gaps: [Range<IndexKey>], after: IndexKey?)
        -> AnySequence<IndexKey>
    {
        guard let index = fields[type]?[field] else { return AnySequence([]) }
        return AnySequence(index.values(after: after, outside: gaps))
    }

    /// Whether some record of `type` is not in the index of `field` (it lacks the field, or holds
    /// a value filters cannot compare): a record is in a field's index at most once.
    func lacks(_ type: String, field: String) -> Bool {
        (names[type]?.count ?? 0) != (fields[type]?[field]?.count ?? 0)
    }
}

/// The part of a field's index a filter reads. String order is Swift's (canonically equivalent
/// strings are equal, the rest compared by their NFC scalars), so the values with an ASCII
/// prefix lie between the prefix and the prefix with its last character raised by one; any
/// other prefix (empty, or beyond ASCII, where normalisation may compose across it) reads the
/// whole index, still in its order. The range may hold values the filter refuses (`A` followed by
/// a combining mark lies after `AZ`): every record read is checked against the filters.
enum IndexRange {
    case equals(String)
    case beginsWith(String)

    /// The first value the range can hold (nil: from the index's start).
    var start: String? {
        switch self {
        case .equals(let value): return value
        case .beginsWith(let prefix): return Self.asciiBound(prefix) == nil ? nil : prefix
        }
    }

    /// What ends the range (nil: the index's end).
    var end: String? {
        switch self {
        case .equals(let value): return value
        case .beginsWith(let prefix): return Self.asciiBound(prefix)
        }
    }

    func holds(_ value: String, end: String) -> Bool {
        switch self {
        case .equals: return value == end
        case .beginsWith: return value < end
        }
    }

    /// Values that begin with `prefix` (as the filters' `hasPrefix` judges) with nothing else in
    /// between, so that a `NOT_BEGINS_WITH` read of the index may step over them: for a non-empty
    /// ASCII prefix, from the prefix to the prefix followed by U+02FF. A value there is the prefix
    /// or the prefix followed by a scalar below U+02FF (NFC order), which starts a character of
    /// its own (the first grapheme extender is U+0300; a prefix ending in CR is left out, as CR
    /// LF is one character). The bound is U+02FF, a spacing letter nothing composes with: the
    /// prefix followed by U+0300 would compose (`A` + U+0300 is `À`, which sorts after `z`). A
    /// value whose prefix letter takes a combining mark (`e` + U+0332) lies after the gap and is
    /// read. Nil: no such range (empty, non-ASCII).
    static func gap(notBeginningWith prefix: String) -> Range<IndexKey>? {
        let bytes = Array(prefix.utf8)
        guard let last = bytes.last, last != UInt8(ascii: "\r"), bytes.allSatisfy({ $0 < 0x80 })
        else { return nil }
        return IndexKey(value: prefix, name: "")..<IndexKey(value: prefix + "\u{2FF}", name: "")
    }

    /// Gaps sorted and merged (a prefix of another's gap holds the other's).
    static func merged(_ gaps: [Range<IndexKey>]) -> [Range<IndexKey>] {
        var merged: [Range<IndexKey>] = []
        for gap in gaps.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, gap.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, gap.upperBound)
            } else {
                merged.append(gap)
            }
        }
        return merged
    }

    /// The least string above every string beginning with an ASCII `prefix`.
    private static func asciiBound(_ prefix: String) -> String? {
        var bytes = Array(prefix.utf8)
        guard let last = bytes.last, bytes.allSatisfy({ $0 < 0x7F }) else { return nil }
        bytes[bytes.count - 1] = last + 1
        return String(decoding: bytes, as: UTF8.self)
    }
}
