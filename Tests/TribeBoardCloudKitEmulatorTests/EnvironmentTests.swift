import Foundation
import Testing
import TribeBoardCloudKitEmulator

/// Development and production as a real container has them: types, fields and indexes.
@Suite("Emulator environments and indexes")
struct EnvironmentTests {
    @Test func aFreshDevelopmentContainerHoldsOnlyTheSchemaFilesTypes() async throws {
        let harness = try await EmulatorHarness.start(EmulatorHarness.enforced(development: try EmulatorHarness.templateSchema()))
        defer { Task { await harness.emulator.stop() } }
        // The schema file holds the legacy CK* types too (an operator imports them to migrate);
        // a type it does not define is not there.
        let legacy = try await harness.client.post("records/query", RawCloudKit.queryAll("CKFamilyNote"))
        #expect(legacy.status == 400)
        #expect(legacy.serverErrorCode == "BAD_REQUEST")
        #expect(legacy.reason == "Did not find record type: CKFamilyNote")
        #expect(try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234")).records.first?["recordChangeTag"] != nil)
        let byCode = try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234", "XYZ789"]))
        #expect(byCode.status == 200)
        #expect(byCode.records.map { $0["recordName"] as? String } == ["F1"])
        #expect(try await harness.client.post("records/query", RawCloudKit.queryAll("Family")).records.count == 1)
    }

    @Test func developmentCreatesTypesAndFieldsOnFirstWriteWithoutIndexes() async throws {
        let harness = try await EmulatorHarness.start(EmulatorHarness.enforced(development: .empty))
        defer { Task { await harness.emulator.stop() } }
        #expect(try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234"])).reason == "Did not find record type: Family")
        let created = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        #expect(created.records.first?["recordName"] as? String == "F1")
        let schema = try #require(await harness.emulator.schema(container: harness.client.container))
        #expect(schema.types["Family"]?.fields["code"] == SchemaField(type: "STRING"))
        // A type made on the fly has no index at all: native CloudKit's text for it, whatever the query.
        let byCode = try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234"]))
        #expect(byCode.status == 400)
        #expect(byCode.reason == "Type is not marked indexable: Family")
        let all = try await harness.client.post("records/query", RawCloudKit.queryAll("Family"))
        #expect(all.reason == "Type is not marked indexable: Family")
        // A field keeps its type: a number where a string was is refused for that record only.
        let wrongType = try await harness.client.post("records/modify", """
            {"operations": [{"operationType": "create", "record": {"recordType": "Family", "recordName": "F2",
              "fields": {"code": {"value": 7, "type": "INT64"}}}}], "atomic": false}
            """)
        #expect(wrongType.status == 200)
        #expect(wrongType.records.first?["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect((wrongType.records.first?["reason"] as? String)?.contains("defined to be: STRING") == true)
        #expect(wrongType.records.first?["uuid"] is String)
    }

    @Test func productionWithoutTheDeployedSchemaRefusesWritesAndQueries() async throws {
        let harness = try await EmulatorHarness.start(EmulatorHarness.enforced(development: try EmulatorHarness.templateSchema()))
            .in("production")
        defer { Task { await harness.emulator.stop() } }
        let write = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        #expect(write.records.first?["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect(write.records.first?["reason"] as? String == "Cannot create new type Family in production schema")
        #expect(try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234"])).reason == "Did not find record type: Family")
        #expect(await harness.emulator.storedRecords(container: harness.client.container, environment: "production").isEmpty)
    }

    @Test func productionWithTheDeployedSchemaTakesItsFieldsAndRefusesOthers() async throws {
        let schema = try EmulatorHarness.templateSchema()
        let harness = try await EmulatorHarness.start(EmulatorHarness.enforced(development: schema, production: schema)).in("production")
        defer { Task { await harness.emulator.stop() } }
        let write = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        #expect(write.records.first?["recordChangeTag"] != nil)
        #expect(try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234"])).records.count == 1)
        let undeployed = try await harness.client.post("records/modify",
            RawCloudKit.createFamily("F2", code: "XYZ789", extra: #", "motto": {"value": "hi", "type": "STRING"}"#))
        #expect(undeployed.records.first?["reason"] as? String == "Cannot create or modify field 'motto' in record 'Family' in production schema")
    }

    @Test func recordIDFiltersTakeAReferenceNotAString() async throws {
        let harness = try await EmulatorHarness.start(EmulatorHarness.enforced(development: try EmulatorHarness.templateSchema()))
        defer { Task { await harness.emulator.stop() } }
        _ = try await harness.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        func query(_ value: String, _ type: String) -> String {
            """
            {"query": {"recordType": "Family", "filterBy": [{"fieldName": "___recordID", "comparator": "EQUALS",
              "fieldValue": {"value": \(value), "type": "\(type)"}}]}}
            """
        }
        let byReference = try await harness.client.post("records/query", query(#"{"recordName": "F1"}"#, "REFERENCE"))
        #expect(byReference.records.map { $0["recordName"] as? String } == ["F1"])
        let byString = try await harness.client.post("records/query", query(#""F1""#, "STRING"))
        #expect(byString.status == 400)
        #expect(byString.serverErrorCode == "BAD_REQUEST")
        let byRecordName = try await harness.client.post("records/query", #"""
            {"query": {"recordType": "Family", "filterBy": [{"fieldName": "recordName", "comparator": "EQUALS", "fieldValue": {"value": "F1", "type": "STRING"}}]}}
            """#)
        #expect(byRecordName.reason == "Field 'recordName' is not marked queryable")
    }

    @Test func inTakesAListTypeNotAPlainString() async throws {
        let harness = try await EmulatorHarness.start()
        defer { Task { await harness.emulator.stop() } }
        let answer = try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234"], type: "STRING"))
        #expect(answer.status == 400)
        #expect(answer.serverErrorCode == "BAD_REQUEST")
    }
}

extension EmulatorHarness {
    func `in`(_ environment: String) -> EmulatorHarness {
        var client = self.client
        client.environment = environment
        return EmulatorHarness(emulator: emulator, client: client, publicFile: publicFile)
    }
}

/// `--data`: records and the schema development grew survive a restart.
@Suite("Emulator persistence")
struct PersistenceTests {
    @Test func aRestartKeepsRecordsAndTheGrownSchema() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-data-\(UUID().uuidString).json").path
        var options = EmulatorHarness.enforced(development: .empty)
        options.dataFile = file
        let first = try await EmulatorHarness.start(options)
        _ = try await first.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234"))
        await first.emulator.stop()
        let second = try await CloudKitEmulator.start(options)
        defer { Task { await second.stop() } }
        #expect(await second.storedRecords(container: first.client.container).map(\.recordName) == ["F1"])
        #expect(await second.schema(container: first.client.container)?.types["Family"]?.fields["code"]?.type == "STRING")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    /// `--schema` given to a restart applies to the container `--data` holds, as an import does:
    /// the type a first write made gains the file's indexes, other types arrive, nothing goes.
    @Test func aSchemaIsAppliedToTheContainerTheDataFileHolds() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-import-\(UUID().uuidString).json").path
        var options = EmulatorHarness.enforced(development: .empty)
        options.dataFile = file
        let first = try await EmulatorHarness.start(options)
        _ = try await first.client.post("records/modify", RawCloudKit.createFamily("F1", code: "ABC234", extra: #", "motto": {"value": "m", "type": "STRING"}"#))
        #expect(try await first.client.post("records/query", RawCloudKit.queryCode(["ABC234"])).reason == "Type is not marked indexable: Family")
        await first.emulator.stop()
        var imported = options
        imported.schema = .enforced(development: try EmulatorHarness.templateSchema(), production: .empty)
        let second = try await EmulatorHarness.start(imported)
        defer { Task { await second.emulator.stop() } }
        let found = try await second.client.post("records/query", RawCloudKit.queryCode(["ABC234"]))
        #expect(found.records.map { $0["recordName"] as? String } == ["F1"])
        let schema = try #require(await second.emulator.schema(container: second.client.container))
        #expect(schema.types["FamilyCodeClaim"] != nil)
        #expect(schema.types["Family"]?.fields["motto"]?.type == "STRING", "a field the file lacks stays")
        var clash = try EmulatorHarness.templateSchema()
        clash.types["Family"]?.fields["code"] = SchemaField(type: "INT64", queryable: true)
        var refused = options
        refused.schema = .enforced(development: clash, production: .empty)
        await #expect(throws: EmulatorError.self) { _ = try await CloudKitEmulator.start(refused) }
    }

    /// A burst's last writes reach the file within the save delay although no write follows:
    /// what a kill -9 would leave is read back (the emulator is never stopped).
    @Test func theTailOfABurstIsSavedWithoutAnotherWrite() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-burst-\(UUID().uuidString).json").path
        var options = CloudKitEmulator.Options()
        options.dataFile = file
        let first = try await EmulatorHarness.start(options)
        for index in 0..<20 { _ = try await first.client.post("records/modify", RawCloudKit.createFamily("F\(index)", code: "C\(index)")) }
        try await Task.sleep(for: .milliseconds(2_500))
        var loading = options
        loading.port = 0
        let second = try await CloudKitEmulator.start(loading)
        defer { Task { await second.stop() } }
        #expect(await second.storedRecords(container: first.client.container).count == 20)
        await first.emulator.stop()
    }

    /// With some index on the type, a filter on a field it lacks is "Did not find field" (a
    /// captured Web Services answer), one on a field without QUERYABLE "not marked queryable".
    @Test func aFilterOnAFieldTheTypeLacksIsNamed() async throws {
        var schema = try EmulatorHarness.templateSchema()
        schema.types["Family"]?.fields["code"] = nil
        let harness = try await EmulatorHarness.start(EmulatorHarness.enforced(development: schema))
        defer { Task { await harness.emulator.stop() } }
        let byCode = try await harness.client.post("records/query", RawCloudKit.queryCode(["ABC234"]))
        #expect(byCode.status == 400 && byCode.serverErrorCode == "BAD_REQUEST")
        #expect(byCode.reason == "Did not find field: 'code' in type: 'Family'")
        #expect(try await harness.client.post("records/query", RawCloudKit.queryAll("Family")).status == 200, "the unfiltered read still works")
    }
}
