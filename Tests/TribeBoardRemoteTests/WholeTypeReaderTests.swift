import Foundation
import Testing
@testable import TribeBoardCloudKit
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardTestSupport
@testable import TribeBoardRemote

/// The whole-type reader against the emulator: every record once, whatever its code, split into
/// queries side by side when the schema allows it, one query when it does not.
@Suite("Whole-type reader")
struct WholeTypeReaderTests {
    static let container = CloudKitConfiguration.defaultContainer

    /// Families with codes over the whole alphabet, 260 of them on "Q" (two pages of that query),
    /// and the codes the alphabet's queries miss: empty, lower case, other scripts, a leading
    /// space or dash, and none at all. Names are unique: a name read twice is a record read twice.
    static func families(count: Int, created: Int64? = nil, prefix: String = "F") -> [CloudKitRecord] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var codes = (0..<count).map { index in
            String((0..<6).map { alphabet[(index * 7 + $0 * 13 + index / 36) % alphabet.count] })
        }
        codes += (0..<260).map { "Q\(String(format: "%05d", $0))" }
        codes += ["", "abc234", "qrs234", "école1", "ÉCOLE1", "дом123", "家族1234", " ABC23", "-ABC23", "_ABC23", "\u{0}A"]
        var records = codes.enumerated().map { index, code in
            var record = CloudKitRecord(recordName: "\(prefix)-\(index)", recordType: RecordMapping.familyType,
                                        fields: ["code": .string(code), "name": .string("Family \(index)")])
            record.created = created.map { CloudKitRecord.Stamp(timestamp: $0, userRecordName: nil) }
            return record
        }
        records.append(CloudKitRecord(recordName: "\(prefix)-no-code", recordType: RecordMapping.familyType,
                                      fields: ["name": .string("Without a code")]))
        return records
    }

    /// Every name the reader handed over, with how often.
    static func read(_ types: [String], with client: CloudKitClient) async throws -> (names: [String: Int], done: [String]) {
        var names: [String: Int] = [:]
        var done: [String] = []
        try await WholeTypeReader(client: client).read(types, typeDone: { done.append($0) }) { page in
            for record in page { names[record.recordName, default: 0] += 1 }
        }
        return (names, done)
    }

    /// The same types read as before: one query per type, page after page.
    static func readOneQueryEach(_ types: [String], with client: CloudKitClient) async throws -> Set<String> {
        var names = Set<String>()
        for type in types {
            try await client.queryAll(CloudKitQuery(recordType: type)) { page in
                for case .record(let record) in page { names.insert(record.recordName) }
            }
        }
        return names
    }

    @Test("every family is read once, whatever its code, by queries side by side")
    func everyFamilyOnce() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let seeded = Self.families(count: 1_500)
        await fixture.emulator.seed(seeded, container: Self.container)
        var legacy = CloudKitRecord(recordName: "L-1", recordType: "CKFamily", fields: ["code": .string("LEG234")])
        legacy.created = nil
        await fixture.emulator.seed([legacy, CloudKitRecord(recordName: "P-1", recordType: "UserProfile", fields: [:])],
                                    container: Self.container)
        let client = try fixture.client()

        let read = try await Self.read(["Family", "CKFamily", "UserProfile", "Membership"], with: client)

        #expect(read.names.filter { $0.value > 1 }.isEmpty, "no record is handed over twice")
        #expect(Set(read.names.keys) == Set(seeded.map(\.recordName) + ["L-1", "P-1"]))
        #expect(Set(read.names.keys) == (try await Self.readOneQueryEach(["Family", "CKFamily", "UserProfile", "Membership"], with: client)))
        #expect(Set(read.done) == ["Family", "CKFamily", "UserProfile", "Membership"] && read.done.count == 4)
        // Family: the probe, the remainder, an unfiltered first page, 36 prefixes and their next
        // pages; CKFamily fits in its unfiltered first page (3 queries); one for each other type.
        let queries = await fixture.emulator.requestCounts()["records/query"] ?? 0
        #expect(queries > 39 + 3 + 2, "Family is split by code (\(queries) queries)")
    }

    @Test("a lagging index hides the same fresh records from the split read as from one query, and no other")
    func laggingIndex() async throws {
        var options = CloudKitEmulator.Options()
        options.indexLag = 600
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let indexed = Self.families(count: 700, created: now - 3_600_000, prefix: "OLD")
        let fresh = Self.families(count: 100, created: now, prefix: "NEW")
        await fixture.emulator.seed(indexed + fresh, container: Self.container)
        let client = try fixture.client()

        let read = try await Self.read(["Family"], with: client)

        #expect(read.names.filter { $0.value > 1 }.isEmpty)
        #expect(Set(read.names.keys) == (try await Self.readOneQueryEach(["Family"], with: client)))
        // The record without a code has no `created` in the fixture: it counts as long written.
        #expect(Set(read.names.keys) == Set(indexed.map(\.recordName) + ["NEW-no-code"]))
    }

    @Test("without a code index the type is read with one query, and a missing legacy type is skipped")
    func withoutACodeIndex() async throws {
        let template = try String(contentsOfFile: CloudKitEmulator.Options.templateSchemaPath, encoding: .utf8)
        let unindexed = template.replacingOccurrences(of: "code            STRING QUERYABLE,", with: "code            STRING,")
        #expect(unindexed != template)
        let folder = try TemporaryDirectory("schema")
        try unindexed.write(toFile: folder.file("schema.ckdb"), atomically: true, encoding: .utf8)
        let schema = try EmulatorSetup.schema(folder.file("schema.ckdb"))
        let fixture = try await EmulatorFixture.start(.enforcing(development: schema, production: schema))
        defer { Task { await fixture.emulator.stop() } }
        let seeded = Self.families(count: 500)
        await fixture.emulator.seed(seeded, container: Self.container)
        let before = await fixture.emulator.requestCounts()["records/query"] ?? 0

        let read = try await Self.read(["Family"], with: try fixture.client())

        #expect(read.names.filter { $0.value > 1 }.isEmpty)
        #expect(Set(read.names.keys) == Set(seeded.map(\.recordName)))
        #expect(read.done == ["Family"])
        // The probe and the remainder (both refused), then the unfiltered query's 4 pages of 772.
        let queries = (await fixture.emulator.requestCounts()["records/query"] ?? 0) - before
        #expect(queries == 2 + 4)
        let legacy = try await Self.read(["CKFamily"], with: try fixture.client())
        #expect(legacy.names.isEmpty && legacy.done == ["CKFamily"], "a legacy type the container lacks is skipped")
    }

    @Test("a server that refuses the remainder's comparator gets one query, before anything was handed over")
    func refusedComparator() throws {
        var plan = ReadPlan(types: ["Family"], splittable: { _ in true }, splits: WholeTypeReader.splits)
        #expect(plan.nextWork() == .probe(type: 0))
        #expect(plan.nextWork() == .page(stream: 0, marker: nil))
        #expect(plan.query(of: .page(stream: 0, marker: nil)).filterBy?.first?.comparator == "NOT_BEGINS_WITH")
        #expect(plan.nextWork() == .page(stream: 1, marker: nil))
        #expect(plan.query(of: .page(stream: 1, marker: nil)).filterBy == nil)
        #expect(plan.nextWork() == nil, "the prefixes wait for the probe, the remainder and the unfiltered page")
        let refusal = CloudKitError.service(code: .badRequest, httpStatus: 400, reason: "Unknown comparator NOT_BEGINS_WITH", retryAfter: nil)
        var handed = try plan.take(.page(stream: 0, .failure(refusal)), absent: { _ in false })
        handed = try plan.take(.probed(type: 0, .success(())), absent: { _ in false })
        #expect(handed.pages.isEmpty && plan.nextWork() == nil, "still waiting for the unfiltered page")
        let first = CloudKitQueryPage(records: [.record(CloudKitRecord(recordName: "A", recordType: "Family", fields: [:]))], continuationMarker: "m1")
        handed = try plan.take(.page(stream: 1, .success(first)), absent: { _ in false })
        #expect(handed.pages.count == 1, "the unfiltered query's first page is handed over, once")
        #expect(plan.nextWork() == .page(stream: 1, marker: "m1"))
        #expect(plan.nextWork() == nil)
        let last = CloudKitQueryPage(records: [.record(CloudKitRecord(recordName: "B", recordType: "Family", fields: [:]))], continuationMarker: nil)
        handed = try plan.take(.page(stream: 1, .success(last)), absent: { _ in false })
        #expect(handed.pages.count == 1 && handed.finished == ["Family"])
    }

    @Test("a family type that fits in one page is read with that page, without the split")
    func smallTypeOnePage() throws {
        var plan = ReadPlan(types: ["CKFamily"], splittable: { _ in true }, splits: WholeTypeReader.splits)
        while plan.nextWork() != nil {}
        let only = CloudKitQueryPage(records: [.record(CloudKitRecord(recordName: "A", recordType: "CKFamily", fields: [:]))], continuationMarker: nil)
        let handed = try plan.take(.page(stream: 1, .success(only)), absent: { _ in false })
        #expect(handed.pages.count == 1 && handed.finished == ["CKFamily"])
        #expect(plan.nextWork() == nil)
        let late = try plan.take(.page(stream: 0, .success(only)), absent: { _ in false })
        #expect(late.pages.isEmpty, "the remainder's page comes too late and is dropped")
    }

    @Test("a failure other than a missing index ends the read")
    func otherFailuresEndTheRead() throws {
        var plan = ReadPlan(types: ["Family"], splittable: { _ in true }, splits: WholeTypeReader.splits)
        _ = plan.nextWork()
        #expect(throws: CloudKitError.self) {
            try plan.take(.probed(type: 0, .failure(.gaveUp(attempts: 5, last: .network(reason: "timed out")))), absent: { _ in false })
        }
    }

    @Test("a type the container cannot read whole stops the read with Apple's refusal, though the split would work")
    func unfilteredRefusalEndsTheRead() throws {
        var plan = ReadPlan(types: ["Family"], splittable: { _ in true }, splits: WholeTypeReader.splits)
        while plan.nextWork() != nil {}
        let refusal = CloudKitError.schema(.notQueryable(field: "recordName", recordType: "Family"),
                                           reason: "Field 'recordName' is not marked queryable")
        let empty = CloudKitQueryPage(records: [], continuationMarker: "m1")
        var handed = try plan.take(.probed(type: 0, .success(())), absent: { _ in false })
        handed = try plan.take(.page(stream: 0, .success(empty)), absent: { _ in false })
        #expect(handed.pages.isEmpty && plan.nextWork() == nil, "nothing is read before the unfiltered query answers")
        #expect(throws: refusal) { try plan.take(.page(stream: 1, .failure(refusal)), absent: { _ in false }) }
    }
}
