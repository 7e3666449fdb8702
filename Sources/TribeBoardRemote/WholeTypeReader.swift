import TribeBoardCloudKit
import TribeBoardDomain

/// Reads whole record types (the live audit, `migrate`, `migrate claims`, bulk removals) as
/// several queries at once instead of one page after another, since a continuation marker is
/// sequential by nature and a far container costs a round trip a page.
///
/// A family type (`Family`, `CKFamily`) is split by the first character of its code. The join
/// kit's 32 symbols (the app and the toolkit draw codes from them uniformly) are cut into as many
/// runs of consecutive symbols as the client sends requests at once (4 runs of 8), and each run
/// is one query: `NOT_BEGINS_WITH` every symbol outside the run. A query so holds the codes that
/// begin with its run, and every code that begins with no symbol at all (a look-alike 0, O, 1 or
/// I that a typed code may hold, empty, lower case, another script, and, where the server counts
/// a missing field as not beginning with anything, no code): those are handed over from the
/// first query only, and dropped from the others, by the code's first scalar, which places a
/// record in one run whichever way the server compares a prefix (by character or by code
/// unit). Few queries, each read to its end, waste fewer part-filled last pages than one query
/// per symbol (a round trip each), and the container's index steps over what a query leaves out.
/// The first query's first page goes first, beside an unfiltered query's first page: it filters
/// on the code, so its answer is the schema's (doctor's code probe asks the same index:
/// `SchemaProbe`), and proves that the server knows the comparator. A type that fits in the
/// unfiltered page is read with it; otherwise the other queries start once the first answered,
/// or, when the split is refused (no code index, an unknown comparator), the unfiltered query
/// goes on. Nothing is handed over before that choice, so nothing is read twice. Other types
/// (profiles, memberships) have no field every record holds in an even spread: each is one
/// query, beside the rest.
///
/// Each query has its own continuation marker; at most the client's concurrency of pages is in
/// flight, each handed over as it arrives, so memory holds that many pages whatever the size of
/// the container. A record belongs to one query by its code at the time it is read: each is read
/// once, unless its code changes during the read (then it may be read twice, or not at all, as a
/// record written during any read may be missing while the index lags).
package struct WholeTypeReader: Sendable {
    /// First characters of codes the app generates.
    static let symbols: [String] = FamilyCode.generatedAlphabet.map { String(UnicodeScalar($0)) }

    let client: CloudKitClient
    /// A type the container lacks that simply has no records to read (a legacy type), rather than
    /// a configuration to fix: it is skipped; any other failure ends the read.
    let absent: @Sendable (CloudKitError) -> Bool

    package init(
        client: CloudKitClient,
        absent: @escaping @Sendable (CloudKitError) -> Bool = { $0.isMissingLegacyType }
    ) {
        self.client = client
        self.absent = absent
    }

    /// Queries a family type is split into: the client's concurrency as a power of two that
    /// divides the 32 symbols, at least 2.
    static func splitCount(concurrency: Int) -> Int {
        var count = 2
        while count < concurrency, count < symbols.count { count *= 2 }
        return count
    }

    /// A family type's queries: each `NOT_BEGINS_WITH` every symbol outside its run.
    static func splits(_ count: Int) -> [[CloudKitFilter]] {
        let run = symbols.count / count
        return (0..<count).map { split in
            symbols.indices.filter { $0 / run != split }.map {
                .notBeginsWith(SchemaProbe.codeField, symbols[$0])
            }
        }
    }

    /// Whether split `index` of `count` hands `record` over: its code's first scalar is in the
    /// split's run; a code that begins with no symbol (or is no string, which no container's
    /// STRING field holds) is every split's, and the first one's to hand over.
    static func hands(_ record: CloudKitRecord, split index: Int, of count: Int) -> Bool {
        let first = record.fields?[SchemaProbe.codeField]?.value.string?.unicodeScalars.first
        let symbol = first.flatMap { scalar in symbols.firstIndex(of: String(scalar)) }
        return (symbol.map { $0 / (symbols.count / count) } ?? 0) == index
    }

    /// Every record of `types` (deleted ones left out), handed to `page` one page at a time on
    /// the caller's executor; `typeDone` hears of each type once all of it was read (or skipped).
    package func read(_ types: [String], typeDone: (String) -> Void = { _ in },
                      page: ([CloudKitRecord]) throws -> Void) async throws {
        let count = Self.splitCount(concurrency: client.concurrency)
        var plan = ReadPlan(types: types, splittable: Self.splittable, splits: Self.splits(count))
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
                for handedPage in handed.pages {
                    try page(
                        handedPage.records.compactMap { result in
                            guard case .record(let record) = result, record.deleted != true,
                                handedPage.split.map({ Self.hands(record, split: $0, of: count) })
                                    ?? true
                            else { return nil }
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

    private static func perform(
        _ work: ReadPlan.Work, _ query: CloudKitQuery, on client: CloudKitClient
    ) async -> ReadPlan.Answer {
        switch work {
        case .page(let stream, let marker):
            do throws(CloudKitError) {
                return .page(
                    stream: stream,
                    .success(try await client.query(query, continuationMarker: marker)))
            } catch {
                return .page(stream: stream, .failure(error))
            }
        }
    }
}
