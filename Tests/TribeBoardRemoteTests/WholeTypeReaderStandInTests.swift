import Foundation
import Logging
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardTestSupport
@testable import TribeBoardRemote

/// The whole-type reader against the independent stand-in (Tests/StandIn), which implements
/// `BEGINS_WITH`, `NOT_BEGINS_WITH`, continuation markers and a lagging index from Apple's
/// reference without the emulator's code: a mistake the reader and the emulator share shows here.
@Suite("Whole-type reader: the independent stand-in", .timeLimit(.minutes(2)))
struct WholeTypeReaderStandInTests {
    /// Far longer than the test: what is written during the read stays out of the index for the
    /// split read and the one-query read after it alike (a fresh write may be missing from a
    /// query, as Apple documents), however loaded the machine.
    static let lag = 600.0

    /// What another writer (an app user, not the operator's key) left in the container before:
    /// pairs sharing an existing family's code, and lower-case twins of one.
    static func planted(_ families: [CloudKitRecord]) -> [CloudKitRecord] {
        let stamp = CloudKitRecord.Stamp(timestamp: 1_700_000_000_000, userRecordName: "_app_user_mallory")
        return families.prefix(30).enumerated().map { index, family in
            let code = family.string("code") ?? ""
            var record = CloudKitRecord(recordName: "PLANTED-\(index)", recordType: RecordMapping.familyType,
                                        fields: ["code": .string(index % 2 == 0 ? code : code.lowercased()),
                                                 "name": .string("Planted \(index)")])
            record.created = stamp
            return record
        }
    }

    static func seedFile(_ records: [CloudKitRecord], in folder: TemporaryDirectory) throws -> String {
        struct Seed: Encodable { let records: [CloudKitRecord] }
        let path = folder.file("seed.json")
        try JSONEncoder().encode(Seed(records: records)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Families the operator and the app user write while the read is under way, the app user's
    /// taking codes that are already there.
    static func writeDuring(_ operatorClient: CloudKitClient, _ appUser: CloudKitClient, codes: [String]) async throws -> [String] {
        var written: [String] = []
        for (batch, client) in [operatorClient, appUser, operatorClient, appUser].enumerated() {
            let records = codes.indices.map { index in
                CloudKitRecord(recordName: "NEW-\(batch)-\(UUID().uuidString)", recordType: RecordMapping.familyType,
                               fields: ["code": .string(codes[index]), "name": .string("Written during the read")])
            }
            for case .record(let saved) in try await client.modify(records.map { CloudKitOperation(.create, $0) }) {
                written.append(saved.recordName)
            }
        }
        return written
    }

    @Test("every family once, another writer's duplicates included; writes during the read missed as by one query")
    func everyFamilyOnce() async throws {
        let folder = try TemporaryDirectory("reader-standin")
        let families = WholeTypeReaderTests.families(count: 1_200)
        let planted = Self.planted(families)
        let server = try StandInServer.start(users: ["mallory=tokenmallory"],
                                             options: ["--index-lag", "\(Self.lag)", "--seed", try Self.seedFile(families + planted, in: folder)])
        defer { server.stop() }
        let client = try server.client()
        var configuration = server.configuration
        configuration.keyID = nil
        configuration.keyFile = nil
        configuration.appUser = AppUserCredentials(apiToken: "standin-api-token", webAuthToken: "tokenmallory")
        let mallory = CloudKitClient(configuration: configuration, signer: nil, policy: EmulatorFixture.quickRetries,
                                     logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
        let before = Set((families + planted).map(\.recordName))

        // The writes start once the read has handed over its first page.
        let (firstPage, signal) = AsyncStream<Void>.makeStream()
        let duringCodes = families.dropFirst(100).prefix(20).compactMap { $0.string("code") }
        let writer = Task {
            for await _ in firstPage { break }
            return try await Self.writeDuring(client, mallory, codes: duringCodes)
        }
        var names: [String: Int] = [:]
        var codes: [String: Int] = [:]
        var pages = 0
        try await WholeTypeReader(client: client).read([RecordMapping.familyType]) { page in
            signal.yield()
            pages += 1
            for record in page {
                names[record.recordName, default: 0] += 1
                if let code = record.string("code") { codes[code, default: 0] += 1 }
            }
        }
        signal.finish()
        let written = try await writer.value
        let oneQuery = try await WholeTypeReaderTests.readOneQueryEach([RecordMapping.familyType], with: client)

        #expect(written.count == 4 * duringCodes.count && duringCodes.count == 20, "every write during the read was taken")
        #expect(names.filter { $0.value > 1 }.isEmpty, "no family handed over twice")
        #expect(Set(names.keys) == before, "every family there before the read, once; none of the lagging writes")
        #expect(Set(names.keys) == oneQuery, "the same families as one query page after page")
        #expect(pages >= 1 + WholeTypeReader.prefixes.count, "read as the split's queries, a page each at least (\(pages))")
        for (index, record) in planted.enumerated() where index.isMultiple(of: 2) {
            let code = try #require(record.string("code"))
            let holders = (families + planted).filter { $0.string("code") == code }.count
            #expect(holders >= 2 && codes[code] == holders, "\(code): the family and the duplicate planted beside it")
        }
    }
}
