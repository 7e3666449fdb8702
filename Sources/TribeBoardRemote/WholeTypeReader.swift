import TribeBoardCloudKit
import TribeBoardDomain

/// Reads whole record types (the live audit, `migrate`, `migrate claims`, bulk removals) as
/// several queries at once instead of one page after another, since a continuation marker is
/// sequential by nature and a far container costs a round trip a page.
///
/// A family type (`Family`, `CKFamily`) is split by the first character of its code: one
/// `BEGINS_WITH` query per symbol of generated codes (the join kit's alphabet, 32 symbols, which
/// the app and the toolkit draw codes from uniformly), and a remainder query with
/// `NOT_BEGINS_WITH` each of them for whatever else a code can be (the look-alikes 0, O, 1 and I
/// that typed codes may hold, empty, lower case, another script, and, where the server counts a
/// missing field as not beginning with anything, no code at all). The remainder's first page
/// goes first, beside an unfiltered query's first page: it filters on the code, so its answer is
/// the schema's (doctor's code probe asks the same index: `SchemaProbe`), and proves that the
/// server knows the comparator. A type that fits in the unfiltered page is read with it;
/// otherwise the prefixes start once the remainder answered, or, when the split is refused
/// (no code index, an unknown comparator), the unfiltered query goes on. Nothing is handed over
/// before that choice, so nothing is read twice. Other types (profiles, memberships) have no
/// field every record holds in an even spread: each is one query, beside the rest.
///
/// Each query has its own continuation marker; at most the client's concurrency of pages is in
/// flight, each handed over as it arrives, so memory holds that many pages whatever the size of
/// the container. A record belongs to one query by its code at the time it is read: each is read
/// once, unless its code changes during the read (then it may be read twice, or not at all, as a
/// record written during any read may be missing while the index lags).
package struct WholeTypeReader: Sendable {
    /// First characters of codes the app generates, one query each.
    static let prefixes: [String] = FamilyCode.generatedAlphabet.map { String(UnicodeScalar($0)) }

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
        switch work {
        case .page(let stream, let marker):
            do throws(CloudKitError) {
                return .page(stream: stream, .success(try await client.query(query, continuationMarker: marker)))
            } catch {
                return .page(stream: stream, .failure(error))
            }
        }
    }
}
