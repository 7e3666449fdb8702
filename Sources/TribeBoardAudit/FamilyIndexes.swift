import Foundation
import TribeBoardDomain

/// Families by code key and by id, for one side of an audit, in compact form: a million-family
/// store and a million-record snapshot fit in a few hundred MB together.
struct CodeIndex<Entry: Sendable>: Sendable {
    private(set) var entries: [Entry] = []
    /// The first entry holding each key.
    private var firstByKey: [String: Int32] = [:]
    /// Further entries of keys held more than once (few, in a healthy data set).
    private(set) var moreByKey: [String: [Int32]] = [:]

    init(expectedCount: Int = 0) {
        entries.reserveCapacity(expectedCount)
        firstByKey.reserveCapacity(expectedCount)
    }

    mutating func add(_ entry: Entry, key: String) {
        let index = Int32(entries.count)
        entries.append(entry)
        if firstByKey[key] == nil {
            firstByKey[key] = index
        } else {
            moreByKey[key, default: []].append(index)
        }
    }

    func indices(forKey key: String) -> [Int32] {
        guard let first = firstByKey[key] else { return [] }
        return [first] + (moreByKey[key] ?? [])
    }

    func contains(key: String) -> Bool { firstByKey[key] != nil }

    /// The entry holding `key` when exactly one does (the common case, checked without allocating).
    func only(forKey key: String) -> Entry? {
        guard let first = firstByKey[key], moreByKey.isEmpty || moreByKey[key] == nil else { return nil }
        return entries[Int(first)]
    }

    var keys: Dictionary<String, Int32>.Keys { firstByKey.keys }

    subscript(index: Int32) -> Entry { entries[Int(index)] }
}

/// The local store's families: id and code only (names and dates are fetched later for the few
/// families a finding names).
struct LocalFamilyIndex: Sendable {
    struct Entry: Sendable {
        let id: CompactID
        let code: String
        /// The store marks it uploaded (`needs_sync = 0`): CloudKit should hold it.
        let uploaded: Bool
    }

    var codes = CodeIndex<Entry>()
    private(set) var byID: [CompactID: Int32] = [:]

    init(expectedCount: Int) {
        codes = CodeIndex(expectedCount: expectedCount)
        byID.reserveCapacity(expectedCount)
    }

    mutating func add(id: String, code: String, uploaded: Bool = false) {
        let compact = CompactID(id)
        byID[compact] = Int32(codes.entries.count)
        codes.add(Entry(id: compact, code: code, uploaded: uploaded), key: FamilyCode.key(code))
    }

    func code(ofFamily id: CompactID) -> String? {
        byID[id].map { codes[$0].code }
    }
}

/// The remote side's family records (current and legacy `CKFamily`), and the other legacy records.
struct RemoteFamilyIndex: Sendable {
    struct Entry: Sendable {
        let id: CompactID
        let code: String
        let name: String?
        let createdAtMilliseconds: Int64?
        let line: Int32
        let recordType: String
    }

    var codes = CodeIndex<Entry>()
    /// Records per type, every type read.
    var recordCounts: [String: Int] = [:]
    /// Legacy records of types that hold no code (profiles, memberships).
    var otherLegacy: [RemoteRecordSummary] = []
    var otherLegacyCount = 0
    /// Every legacy record's name by type: after the read, those whose migrated copy is here too.
    private(set) var legacyNames: [String: [CompactID]] = [:]
    var malformed: [MalformedSnapshotLine] = []
    var malformedCount = 0
    /// Family records without a code field (or whose code is not a string).
    var withoutCode: [RemoteRecordSummary] = []
    /// Records with an empty record name: counted, never indexed (they cannot be named or changed).
    var nameless = 0
    /// Records holding a value that could not be used (a creation date of 1e300), the first
    /// `malformedListLimit` of them.
    var invalidValues: [RemoteRecordSummary] = []
    var invalidValueCount = 0
    /// The line each record name was first read on (0 for a live read), and the further lines of
    /// names read more than once: a snapshot that holds a record twice was not written by one read.
    private var lineByName: [CompactID: Int32] = [:]
    private(set) var repeatedNames: [CompactID: [Int32]] = [:]

    /// Keeps every malformed line and legacy record when asked, else the first `sampleLimit`.
    let sampleLimit: Int?

    /// `expectedRecords`: a guess from the snapshot's size, so the name index does not grow by
    /// rehashing a million entries several times.
    init(sampleLimit: Int?, expectedRecords: Int = 0) {
        self.sampleLimit = sampleLimit
        lineByName.reserveCapacity(expectedRecords)
    }

    mutating func add(_ record: RemoteRecordSummary) {
        recordCounts[record.recordType, default: 0] += 1
        guard !record.hasNoName else {
            nameless += 1
            return
        }
        let id = CompactID(record.recordName)
        let line = Int32(clamping: record.line ?? 0)
        if let previous = lineByName.updateValue(line, forKey: id) {
            repeatedNames[id, default: [previous]].append(line)
        }
        if record.isLegacy { legacyNames[record.recordType, default: []].append(id) }
        if record.invalidValue != nil {
            invalidValueCount += 1
            if invalidValues.count < Self.malformedListLimit { invalidValues.append(record) }
        }
        guard record.holdsFamilyCode else {
            if record.isLegacy {
                otherLegacyCount += 1
                if sampleLimit.map({ otherLegacy.count < $0 }) ?? true { otherLegacy.append(record) }
            }
            return
        }
        guard let code = record.code else {
            withoutCode.append(record)
            return
        }
        codes.add(Entry(id: id, code: code, name: record.name, createdAtMilliseconds: record.createdAtMilliseconds, line: line,
                        recordType: record.recordType),
                  key: FamilyCode.key(code))
    }

    func holds(recordName: CompactID) -> Bool { lineByName[recordName] != nil }

    mutating func add(_ line: MalformedSnapshotLine) {
        malformedCount += 1
        // Errors are listed one by one, but a file of garbage should not become a report of garbage.
        if malformed.count < Self.malformedListLimit { malformed.append(line) }
    }

    static let malformedListLimit = 1000
}
