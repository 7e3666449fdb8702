import TribeBoardCloudKit

/// Reads whole record types (the live audit, `migrate`, `migrate claims`, bulk removals) as
/// several queries at once instead of one page after another, since a continuation marker is
/// sequential by nature and a far container costs a round trip a page.
///
/// A family type (`Family`, `CKFamily`) is split by the first character of its code when doctor's
/// code probe (`SchemaProbe`) answers: one `BEGINS_WITH` query per character of the app's
/// alphabet (A-Z, 0-9), and a remainder query with `NOT_BEGINS_WITH` each of them for whatever
/// else a code can be (empty, lower case, another script, and, where the server counts a missing
/// field as not beginning with anything, no code at all). Beside the probe go the remainder's
/// first page (proof that the server knows the comparator) and an unfiltered query's first page:
/// a type that fits in it is read with it; otherwise the prefixes start once the probe and the
/// remainder answered, or, when the split is refused, the unfiltered query goes on. Nothing is
/// handed over before that choice, so nothing is read twice. Other types (profiles, memberships)
/// have no field every record holds in an even spread: each is one query, beside the rest.
///
/// Each query has its own continuation marker; at most the client's concurrency of pages is in
/// flight, each handed over as it arrives, so memory holds that many pages whatever the size of
/// the container. A record belongs to one query by its code at the time it is read: each is read
/// once, unless its code changes during the read (then it may be read twice, or not at all, as a
/// record written during any read may be missing while the index lags).
package struct WholeTypeReader: Sendable {
    /// First characters of codes the app generates, one query each.
    static let prefixes: [String] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        + (0...9).map(String.init)

    let client: CloudKitClient
    /// A type the container lacks that simply has no records to read (a legacy type), rather than
    /// a configuration to fix: it is skipped; any other failure ends the read.
    let absent: @Sendable (CloudKitError) -> Bool

    package init(client: CloudKitClient, absent: @escaping @Sendable (CloudKitError) -> Bool = { $0.isMissingLegacyType }) {
        self.client = client
        self.absent = absent
    }

    /// A family type's queries: the remainder (no code of the alphabet's), then one per prefix.
    static let splits: [[CloudKitFilter]] = [prefixes.map { .notBeginsWith(SchemaProbe.codeField, $0) }]
        + prefixes.map { [.beginsWith(SchemaProbe.codeField, $0)] }

    /// Every record of `types` (deleted ones left out), handed to `page` one page at a time on
    /// the caller's executor; `typeDone` hears of each type once all of it was read (or skipped).
    package func read(_ types: [String], typeDone: (String) -> Void = { _ in },
                      page: ([CloudKitRecord]) throws -> Void) async throws {
        var plan = ReadPlan(types: types, splittable: Self.splittable, splits: Self.splits)
        try await withThrowingTaskGroup(of: ReadPlan.Answer.self) { group in
            var running = 0
            func launch() {
                while running < client.concurrency, let work = plan.nextWork() {
                    running += 1
                    let query = plan.query(of: work)
                    group.addTask { [client] in await Self.perform(work, query, on: client) }
                }
            }
            launch()
            while let answer = try await group.next() {
                running -= 1
                let handed = try plan.take(answer, absent: absent)
                launch()
                for records in handed.pages {
                    try page(records.compactMap { result in
                        guard case .record(let record) = result, record.deleted != true else { return nil }
                        return record
                    })
                }
                for type in handed.finished { typeDone(type) }
            }
        }
    }

    /// Family types carry the code the read splits on.
    static func splittable(_ type: String) -> Bool {
        RecordType(rawValue: type).map { $0 == .family || $0 == .legacyFamily } ?? false
    }

    private static func perform(_ work: ReadPlan.Work, _ query: CloudKitQuery, on client: CloudKitClient) async -> ReadPlan.Answer {
        do throws(CloudKitError) {
            switch work {
            case .probe(let type):
                guard let recordType = RecordType(rawValue: query.recordType) else { return .probed(type: type, .success(())) }
                try await SchemaProbe(recordType: recordType, codeFilter: true).run(on: client)
                return .probed(type: type, .success(()))
            case .page(let stream, let marker):
                return .page(stream: stream, .success(try await client.query(query, continuationMarker: marker)))
            }
        } catch {
            switch work {
            case .probe(let type): return .probed(type: type, .failure(error))
            case .page(let stream, _): return .page(stream: stream, .failure(error))
            }
        }
    }
}
