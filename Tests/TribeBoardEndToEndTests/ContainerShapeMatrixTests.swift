import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport
import TribeBoardRemote

/// Every command that reaches CloudKit against every shape a real container
/// has, run as a cron job runs it (`-q --json`). Each cell checks the exit status, that the reason
/// for a non-zero one is on stderr although quiet, and after each shape that no family was lost
/// or uploaded twice. 75 appears only for the one shape that passes by waiting. (`sheets` reads no
/// remote: it is not in the matrix.) Shapes run side by side: the whole matrix is a few seconds
/// of process starts, not data.
@Suite(.timeLimit(.minutes(2)))
struct ContainerShapeMatrixTests {
    static let families = 4
    static let sourceContainer = "iCloud.net.dataenvy.TribeBoardSource"

    enum Command: String, CaseIterable, Sendable {
        case provision, provisionSync, resync, audit, auditExport, doctor, migrateLegacyTypes, migrateContainer

        var arguments: [String] {
            switch self {
            case .provision: return ["provision", "in.csv", "--out", "out"]
            case .provisionSync: return ["provision", "in.csv", "--out", "out", "--sync"]
            case .resync: return ["resync"]
            case .audit: return ["audit"]
            case .auditExport: return ["audit", "--export-remote", "remote.jsonl"]
            case .doctor: return ["doctor"]
            case .migrateLegacyTypes: return ["migrate", "legacy-types", "--apply", "--out", "migrated"]
            case .migrateContainer: return ["migrate", "container", "--from-container", ContainerShapeMatrixTests.sourceContainer,
                                            "--from-environment", "development"]
            }
        }
    }

    /// What stopped a command, as the text it must print (under -q too) to name the cause and fix.
    enum Reason: Sendable {
        case missingType, notIndexable, missingField, notQueryable, notDeployed, busy

        var text: String {
            switch self {
            case .missingType: return "cktool import-schema"
            case .notIndexable: return "has no index at all"
            case .missingField: return "has no field code"
            case .notQueryable: return "has no QUERYABLE index"
            case .notDeployed: return "Deploy Schema Changes"
            case .busy: return "503"
            }
        }
    }

    struct Cell: Sendable {
        let status: Int32
        let reason: Reason?
        static let ok = Cell(status: 0, reason: nil)
        static func config(_ reason: Reason) -> Cell { Cell(status: 78, reason: reason) }
        static let later = Cell(status: 75, reason: .busy)
    }

    struct Shape: Sendable, CustomStringConvertible {
        let name: String
        var environment = "development"
        /// The container as it is: what the emulator starts with, and records written earlier.
        let setUp: @Sendable () throws -> CloudKitEmulator.Options
        var legacyRecords: [CloudKitRecord] = []
        /// Only this shape may end 75: the service is busy, and waiting is the fix.
        var passesByWaiting = false
        let cells: [Command: Cell]
        var description: String { name }

        func expected(_ command: Command) -> Cell { cells[command] ?? .ok }
    }

    // MARK: Shapes

    /// The schema file less its legacy CK* types (shipped for migrations): each shape adds the
    /// legacy types it is about itself, indexed or not.
    static func template() throws -> ContainerSchema {
        var schema = try CloudKitEmulator.Options.templateSchema()
        schema.types = schema.types.filter { !$0.key.hasPrefix("CK") }
        return schema
    }

    static func changed(_ change: (inout ContainerSchema) -> Void) throws -> ContainerSchema {
        var schema = try template()
        change(&schema)
        return schema
    }

    /// The template with the legacy types as a build before the rename left them, indexed like
    /// the current ones (`types` of CKFamily, CKUserProfile, CKMembership).
    static func withLegacy(_ types: [String]) throws -> ContainerSchema {
        try changed { schema in
            for legacy in types { schema.types[legacy] = schema.types[String(legacy.dropFirst(2))] }
        }
    }

    static func everyIndexRemoved(_ schema: inout ContainerSchema) {
        for (name, type) in schema.types {
            var type = type
            type.fields = type.fields.mapValues { SchemaField(type: $0.type) }
            schema.types[name] = type
        }
    }

    static func dev(_ schema: ContainerSchema) -> CloudKitEmulator.Options { .enforcing(development: schema) }

    static let legacyFamilies = MigrateFixtures.families(2, legacy: true, offset: 10)

    static let shapes: [Shape] = [
        Shape(name: "permissive", setUp: { CloudKitEmulator.Options() }, legacyRecords: legacyFamilies, cells: [:]),
        Shape(name: "development with the schema, no legacy types", setUp: { dev(try template()) }, cells: [:]),
        Shape(name: "development empty (types made on first write)", setUp: { dev(.empty) }, cells: [
            .provision: .config(.missingType), .provisionSync: .config(.missingType), .resync: .config(.missingType),
            .audit: .config(.missingType), .auditExport: .config(.missingType), .doctor: Cell(status: 1, reason: .missingType),
            // The source container's types were made by its first writes: no index there either.
            .migrateLegacyTypes: .config(.missingType), .migrateContainer: .config(.notIndexable),
        ]),
        Shape(name: "development with types but no index at all", setUp: { dev(try changed(everyIndexRemoved)) }, cells: [
            .provision: .config(.notIndexable), .provisionSync: .config(.notIndexable), .resync: .config(.notIndexable),
            .audit: .config(.notIndexable), .auditExport: .config(.notIndexable), .doctor: Cell(status: 1, reason: .notIndexable),
            .migrateLegacyTypes: .config(.notIndexable), .migrateContainer: .config(.notIndexable),
        ]),
        Shape(name: "Family without its code field", setUp: { dev(try changed { $0.types["Family"]?.fields["code"] = nil }) }, cells: [
            .provision: .config(.missingField), .provisionSync: .config(.missingField), .resync: .config(.missingField),
            .doctor: Cell(status: 1, reason: .missingField),
        ]),
        Shape(name: "production with the schema deployed", environment: "production",
              setUp: { try CloudKitEmulator.Options.templateContainer() }, cells: [:]),
        Shape(name: "production empty", environment: "production", setUp: { dev(try template()) }, cells: [
            // The second run's rows exist: their codes are claimed first, which production refuses.
            .provision: .config(.missingType), .provisionSync: .config(.notDeployed), .resync: .config(.missingType),
            .audit: .config(.missingType), .auditExport: .config(.missingType), .doctor: Cell(status: 1, reason: .missingType),
            .migrateLegacyTypes: .config(.missingType), .migrateContainer: .config(.missingType),
        ]),
        Shape(name: "legacy types all there", setUp: { dev(try withLegacy(["CKFamily", "CKUserProfile", "CKMembership"])) },
              legacyRecords: legacyFamilies, cells: [:]),
        Shape(name: "legacy CKFamily only", setUp: { dev(try withLegacy(["CKFamily"])) },
              legacyRecords: legacyFamilies.filter { $0.recordType == "CKFamily" }, cells: [:]),
        Shape(name: "legacy types made on the fly, without indexes", setUp: { dev(try template()) }, legacyRecords: legacyFamilies, cells: [
            .provision: .config(.notIndexable), .provisionSync: .config(.notIndexable), .resync: .config(.notIndexable),
            .audit: .config(.notIndexable), .auditExport: .config(.notIndexable), .doctor: Cell(status: 1, reason: .notIndexable),
            .migrateLegacyTypes: .config(.notIndexable), .migrateContainer: .config(.notIndexable),
        ]),
        Shape(name: "code not queryable", setUp: { dev(try changed { $0.types["Family"]?.fields["code"]?.queryable = false }) }, cells: [
            .provision: .config(.notQueryable), .provisionSync: .config(.notQueryable), .resync: .config(.notQueryable),
            .doctor: Cell(status: 1, reason: .notQueryable),
        ]),
        Shape(name: "___recordID not queryable", setUp: { dev(try changed { $0.types["Family"]?.fields["___recordID"]?.queryable = false }) }, cells: [
            .audit: .config(.notQueryable), .auditExport: .config(.notQueryable), .doctor: Cell(status: 1, reason: .notQueryable),
            .migrateLegacyTypes: .config(.notQueryable), .migrateContainer: .config(.notQueryable),
        ]),
        Shape(name: "busy (503, retry in an hour)", setUp: {
            var options = try CloudKitEmulator.Options.templateContainer()
            options.faults = try EmulatorFaults.parse("503-bare=1,retry-after=3600")
            return options
        }, passesByWaiting: true, cells: [
            .provision: .later, .provisionSync: .later, .resync: .later, .audit: .later, .auditExport: .later,
            .migrateLegacyTypes: .later, .migrateContainer: .later,
        ]),
    ]

    // MARK: The matrix

    @Test func everyCommandAgainstEveryContainerShape() async throws {
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Three shapes at a time: process starts are the cost, and the machine is shared.
            var pending = Self.shapes[...]
            for _ in 0..<3 {
                guard let shape = pending.popFirst() else { break }
                group.addTask { try await Self.run(shape) }
            }
            while try await group.next() != nil {
                guard let shape = pending.popFirst() else { continue }
                group.addTask { try await Self.run(shape) }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(60), "the matrix runs in well under a minute")
    }

    static func run(_ shape: Shape) async throws {
        let fixture = try await EmulatorFixture.start(try shape.setUp())
        defer { Task { await fixture.emulator.stop() } }
        let container = CloudKitConfiguration.defaultContainer
        if !shape.legacyRecords.isEmpty { await fixture.emulator.seed(shape.legacyRecords, container: container, environment: shape.environment) }
        await fixture.emulator.seed(MigrateFixtures.families(2, legacy: false, offset: 20), container: sourceContainer)
        let directory = try TemporaryDirectory("shape")
        try directory.write("in.csv", CSVFixtures.families(count: families))
        for command in Command.allCases {
            let result = try await ProcessRunner.runAsync(ProcessRunner.executable("tribeboard"),
                                                          command.arguments + ["--store", "s.sqlite", "-q", "--json", "--environment", shape.environment]
                                                              + fixture.remoteArguments, in: directory.path)
            let cell = shape.expected(command)
            let place = "\(shape) × \(command.rawValue)"
            #expect(result.status == cell.status, "\(place): exit \(result.status)\n\(result.stderr)")
            #expect(result.status != 75 || shape.passesByWaiting, "\(place): 75 for what no wait fixes")
            #expect((try? result.report(JSONKeys.self)) != nil,
                    "\(place): one JSON document on stdout\n\(result.stdout)")
            if let reason = cell.reason {
                #expect(result.stderr.contains(reason.text), "\(place): the reason under -q\n\(result.stderr)")
            }
        }
        try await expectNothingLostOrDoubled(shape, fixture: fixture, directory: directory)
    }

    /// Every family of the CSV is in the store, and either in CloudKit once or waiting for resync.
    static func expectNothingLostOrDoubled(_ shape: Shape, fixture: EmulatorFixture, directory: TemporaryDirectory) async throws {
        let query = try ProcessRunner.run("/usr/bin/sqlite3", [directory.file("s.sqlite"), "SELECT id || ' ' || needs_sync FROM families"])
        let rows = query.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let remote = await fixture.emulator.records(container: CloudKitConfiguration.defaultContainer, environment: shape.environment)
            .filter { $0.recordType == RecordMapping.familyType }
        // Records are unique by name; a family sent twice would be a second record with its code
        // (a new name, or a migrated copy beside a provisioned one).
        let codes = remote.compactMap { $0.string("code") }
        #expect(Set(codes).count == codes.count, "\(shape): a family in CloudKit twice: \(codes.sorted())")
        #expect(rows.count >= families, "\(shape): families lost from the store: \(query.stdout) \(query.stderr)")
        let remoteFamilies = Set(remote.map(\.recordName))
        let lost = rows.filter { $0.count == 2 && $0[1] == "0" && !remoteFamilies.contains($0[0]) }
        #expect(lost.isEmpty, "\(shape): marked uploaded but not in CloudKit: \(lost)")
    }
}
