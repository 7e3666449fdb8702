import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// What a real container answers about its schema, as Apple words it: a legacy type it never had
/// is simply empty; a missing required type or index is a configuration problem (78) that says
/// how to fix it, never "try later". The server here is scripted, not the project's emulator.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ContainerSchemaTests {
    /// What the scripted container lacks.
    struct Schema {
        var familyType = true
        var codeQueryable = true
        var recordIDQueryable = true
        /// Production without the deployed schema: every write of a Family is refused.
        var deployed = true
    }

    static func badRequest(_ reason: String) -> RawHTTPServer.Answer {
        .init(status: 400, body: #"{"uuid":"5b7a","serverErrorCode":"BAD_REQUEST","reason":"\#(reason)"}"#)
    }

    /// A container with no legacy types, whose Family type, indexes and deployment are as `schema` says.
    func container(_ schema: Schema = Schema()) throws -> RawHTTPServer {
        try RawHTTPServer(answering: { _, path, body in
            if path.hasSuffix("users/caller") { return .init(status: 200, body: #"{"users":[{"userRecordName":"_c0ffee"}]}"#) }
            if path.hasSuffix("records/modify") { return Self.modify(body, deployed: schema.deployed) }
            guard path.hasSuffix("records/query") else { return .init(status: 200, body: #"{"records":[]}"#) }
            if let type = ["CKFamily", "CKUserProfile", "CKMembership"].first(where: { body.contains("\"\($0)\"") }) {
                return Self.badRequest("Did not find record type: \(type)")
            }
            if !schema.familyType && body.contains("\"Family\"") { return Self.badRequest("Did not find record type: Family") }
            let filtered = body.contains("filterBy")
            if filtered && !schema.codeQueryable { return Self.badRequest("Field 'code' is not marked queryable") }
            if !filtered && !schema.recordIDQueryable { return Self.badRequest("Field 'recordName' is not marked queryable") }
            return .init(status: 200, body: #"{"records":[]}"#)
        })
    }

    /// Every create refused per record when the schema is not deployed, else echoed back as saved.
    static func modify(_ body: String, deployed: Bool) -> RawHTTPServer.Answer {
        let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        let operations = object?["operations"] as? [[String: Any]] ?? []
        let results: [[String: Any]] = operations.compactMap { operation in
            guard var record = operation["record"] as? [String: Any], let name = record["recordName"] as? String else { return nil }
            if !deployed, record["recordType"] as? String == "Family" {
                return ["recordName": name, "serverErrorCode": "BAD_REQUEST", "uuid": "9c1d",
                        "reason": "Cannot create new type Family in production schema"]
            }
            record["recordChangeTag"] = "t1"
            return record
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["records": results])) ?? Data()
        return .init(status: 200, body: String(decoding: data, as: UTF8.self))
    }

    struct Workspace {
        let directory: TemporaryDirectory
        let remote: [String]

        func run(_ arguments: [String]) throws -> ProcessRunner.Result {
            try ProcessRunner.run(ProcessRunner.executable("tribeboard"), arguments + ["--store", "s.sqlite", "--json"] + remote,
                                  in: directory.path)
        }
    }

    func workspace(_ server: RawHTTPServer) throws -> Workspace {
        let directory = try TemporaryDirectory("schema")
        _ = try directory.write("in.csv", CSVFixtures.families(count: 4))
        let key = directory.file("eckey.pem")
        try #require(try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]).status == 0)
        chmod(key, 0o600)
        return Workspace(directory: directory, remote: ["--key-id", "k", "--key-file", key, "--ck-base-url", server.baseURL])
    }

    @Test func aContainerWithoutLegacyTypesChecksCodesAndExitsZero() throws {
        let server = try container()
        defer { server.stop() }
        let result = try workspace(server).run(["provision", "in.csv", "--out", "out"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.report(ProvisionReportMirror.self).codesVerifiedRemotely == 4, "\(result.stdout)")
    }

    @Test func aMissingFamilyTypeIs78WithTheFix() throws {
        let server = try container(Schema(familyType: false))
        defer { server.stop() }
        let result = try workspace(server).run(["provision", "in.csv", "--out", "out"])
        #expect(result.status == 78, "\(result.stderr)")
        let remote = try result.report(ProvisionReportMirror.self).remote
        #expect(remote?.errorKind == "configuration", "\(result.stdout)")
        #expect(remote?.stopKind == "cloudkit.schema.missingType", "\(result.stdout)")
        #expect(result.stderr.contains("cktool import-schema"), "the message names the fix: \(result.stderr)")
    }

    @Test func aCodeFieldWithoutIndexIs78ForProvisionAndResync() throws {
        let server = try container(Schema(codeQueryable: false))
        defer { server.stop() }
        let workspace = try workspace(server)
        let provision = try workspace.run(["provision", "in.csv", "--out", "out"])
        #expect(provision.status == 78, "\(provision.stderr)")
        let remote = try provision.report(ProvisionReportMirror.self).remote
        #expect(remote?.errorKind == "configuration", "\(provision.stdout)")
        #expect(remote?.stopKind == "cloudkit.schema.notQueryable", "\(provision.stdout)")
        #expect(provision.stderr.contains("Family has no QUERYABLE index on code"), "the message names the index to add: \(provision.stderr)")
        let resync = try workspace.run(["resync"])
        #expect(resync.status == 78, "\(resync.stderr)")
        let resyncReport = try resync.report(ResyncReportMirror.self)
        #expect(resyncReport.exitKind == "configuration", "\(resync.stdout)")
        #expect(resyncReport.stopKind == "cloudkit.schema.notQueryable", "\(resync.stdout)")
        #expect(try pending(in: workspace) == 4, "nothing uploaded, nothing lost")
    }

    @Test func theLiveAuditNeedsRecordIDQueryable() throws {
        let server = try container(Schema(recordIDQueryable: false))
        defer { server.stop() }
        let workspace = try workspace(server)
        #expect(try workspace.run(["provision", "in.csv", "--out", "out"]).status == 0)
        let result = try workspace.run(["audit"])
        #expect(result.status == 78, "\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "cloudkit.schema.notQueryable" && error.field == "recordName" && error.category == "configuration", "\(error)")
        #expect(error.message.contains("recordName (___recordID)"), "the message names the index to add: \(error.message)")
    }

    @Test func anUndeployedProductionSchemaStopsResyncWithRecordsPending() throws {
        let server = try container(Schema(deployed: false))
        defer { server.stop() }
        let workspace = try workspace(server)
        let provision = try workspace.run(["provision", "in.csv", "--out", "out"])
        #expect(provision.status == 0, "\(provision.stderr)")
        let resync = try workspace.run(["resync"])
        #expect(resync.status == 78, "\(resync.stderr)")
        let report = try resync.report(ResyncReportMirror.self)
        #expect(report.exitKind == "configuration", "\(resync.stdout)")
        #expect(report.stopKind == "cloudkit.schema.notDeployed", "\(resync.stdout)")
        #expect(resync.stderr.contains("Deploy Schema Changes"), "the message names the fix: \(resync.stderr)")
        #expect(report.quarantined == 0, "a schema problem is not the records' fault: \(resync.stdout)")
        #expect(try pending(in: workspace) == 4)
    }

    @Test func doctorNamesTheMissingIndexAndAcceptsAbsentLegacyTypes() throws {
        let server = try container(Schema(codeQueryable: false))
        defer { server.stop() }
        let result = try workspace(server).run(["doctor"])
        #expect(result.status == 1, "\(result.stderr)")
        let checks = try result.report(DoctorReportMirror.self).byID
        #expect(checks["remote.key"]?.status == "ok")
        #expect(checks["remote.schema.Family.code"]?.status == "failure")
        #expect(checks["remote.schema.Family.code"]?.found.contains("Schema > Indexes > Family") == true)
        #expect(checks["remote.schema.Family.recordID"]?.status == "ok")
        #expect(checks["remote.schema.CKFamily.recordID"]?.status == "ok", "a container that never had CKFamily is fine")
    }

    /// Families still waiting for CloudKit, read with sqlite3 rather than the toolkit.
    func pending(in workspace: Workspace) throws -> Int {
        let result = try ProcessRunner.run("/usr/bin/sqlite3", [workspace.directory.file("s.sqlite"), "SELECT count(*) FROM families WHERE needs_sync = 1"])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
