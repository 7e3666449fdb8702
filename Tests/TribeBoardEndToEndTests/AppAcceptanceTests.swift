import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// What `provision --sync` puts in CloudKit is what the app accepts: every record the emulator
/// holds afterwards is judged by the app's own decoders and validators, read from the app's source
/// (Tests/Fixtures/app), and the rows the app would refuse are refused naming its rule.
@Suite struct AppAcceptanceTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    static func hash(_ digit: Character) -> String { String(repeating: digit, count: 64) }
    static let csv = """
        external_id,family_name,admin_display_name,admin_apple_user_id_hash,code
        A1,Smith & Jones,Ann Smith,,
        A2,Okafor,Ada Okafor,,
        A3,Long,Maximiliana Wilhelmina von Habsburg-Lothringen,\(hash("3")),
        A4,Emoji,Ada 🙂,,
        A5,Parens,Mum (Ada) & Dad,,
        A6,Hash,Ben Hash,\(hash("6")),
        A7,Wang 王,,,
        A8,Exactly,\(String(repeating: "é", count: 30)),\(hash("8")),

        """

    @Test func everyUploadedRecordIsOneTheAppAccepts() async throws {
        let rules = try AppFixtureRules.load()
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("app-acceptance")
        try Data(Self.csv.utf8).write(to: URL(fileURLWithPath: directory.file("in.csv")))
        let result = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out",
                                                                   "--json", "--sync"] + fixture.remoteArguments, in: directory.path)
        let report = try result.report(ProvisionReportMirror.self)
        #expect(report.created == 4 && report.failed == 4, "\(result.stderr)")
        let failures = Dictionary(report.failures.map { ($0.line, $0.error) }, uniquingKeysWith: { first, _ in first })
        #expect(failures[2]?.contains("\"&\" (U+0026); the app allows only letters, digits, spaces and ' - . , in a family name") == true)
        #expect(failures[4]?.contains("has 46 characters; the app allows 1 to 30 in a display name") == true)
        #expect(failures[5]?.contains("\"🙂\" (U+1F642); the app allows only") == true)
        #expect(failures[6]?.contains("\"(\" (U+0028); the app allows only") == true)

        let remote = await fixture.emulator.records(container: CloudKitConfiguration.defaultContainer)
        let appTypes = remote.filter { ["Family", "UserProfile", "Membership"].contains($0.recordType ?? "") }
        #expect(appTypes.filter { $0.recordType == "Family" }.count == 4, "every valid row goes up")
        // Ada Okafor was invited without a hash: no profile the app cannot decode, no membership.
        #expect(appTypes.filter { $0.recordType == "UserProfile" }.count == 2)
        #expect(appTypes.filter { $0.recordType == "Membership" }.count == 2)
        for record in appTypes {
            #expect(rules.violations(of: record).isEmpty, "\(record.recordType ?? "") \(record.recordName): \(rules.violations(of: record))")
        }
        // What awaits its person is not waiting for resync: a resync has nothing to do and says so.
        let resync = try await ProcessRunner.runAsync(tribeboard, ["resync", "--store", "s.sqlite", "--json"] + fixture.remoteArguments,
                                                      in: directory.path)
        #expect(resync.status == 0, "\(resync.stderr)")
        #expect(try StoreInspector(path: directory.file("s.sqlite")).count(
            "SELECT COUNT(*) FROM user_profiles WHERE apple_user_id_hash IS NULL AND needs_sync = 1") == 1)
    }

    /// The fixture is read as expected: a parse that silently found nothing would pass everything.
    @Test func theAppsRulesAreReadFromItsSource() throws {
        let rules = try AppFixtureRules.load()
        #expect(rules.familyName.lengths == 2...50 && rules.displayName.lengths == 1...30)
        #expect(rules.familyName.extraCharacters == "'-.," && rules.codeLengths == 6...8)
        #expect(rules.required["UserProfile"]?.map(\.field) == ["displayName", "appleUserIdHash", "createdAt"])
        #expect(rules.required["Family"]?.first { $0.field == "createdByUserId" }?.isUUID == true)
        #expect(rules.required["Membership"]?.first { $0.field == "role" }?.allowedValues == ["parent_admin", "adult", "kid", "visitor"])
        let broken = CloudKitRecord(recordName: "X", recordType: "UserProfile", fields: [
            "displayName": .string("Mum (Ada) & Dad"), "createdAt": .timestamp(milliseconds: 0)])
        #expect(rules.violations(of: broken) == ["UserProfile.appleUserIdHash missing", "Display name \"Mum (Ada) & Dad\" has invalid characters"])
    }
}
