import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// `tribeboard doctor --project` on the app's own project (trimmed, tafmawere/TribeBoard `uix` 7eccb7f),
/// as support staff run it: where the app looks codes up is a failure with file, line and the fix,
/// and the same project through the join kit passes.
@Suite struct DoctorAppLookupCLITests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    func run(_ project: String, in directory: TemporaryDirectory) throws -> (ProcessRunner.Result, [String: DoctorCheckMirror]) {
        let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", directory.file("none.sqlite"), "--project", project, "--json"])
        return (result, try result.report(DoctorReportMirror.self).byID)
    }

    @Test func theAppsPrivateDatabaseLookupFailsAndTheKitPasses() throws {
        let directory = try TemporaryDirectory("doctor-cli-lookup")
        let (result, byID) = try run(DoctorFixtures.project("real/tafmawere-TribeBoard"), in: directory)
        #expect(result.status == 1)
        let lookup = try #require(byID["container.familyLookup"], "\(byID.keys.sorted())")
        #expect(lookup.status == "failure" && lookup.section == "container")
        let first = try #require(lookup.locations?.first)
        #expect(first.path == "TribeBoard/Services/CloudKitService.swift" && first.line == 531)
        #expect(lookup.locations?.contains { $0.line == 80 } == true)
        #expect(lookup.action?.contains("Packages/TribeBoardJoinKit") == true)
        #expect(byID["container.swiftSources"]?.status == "ok", "the container itself is right")
        let text = try ProcessRunner.run(tribeboard, ["doctor", "--store", directory.file("none.sqlite"), "--project",
                                                      DoctorFixtures.project("real/tafmawere-TribeBoard")])
        #expect(text.stdout.contains("[FAIL] Where the app looks family codes up"), "\(text.stdout)")

        let kit = try DoctorVariant("real/tafmawere-TribeBoard")
        try kit.edit("TribeBoard/Services/CloudKitService.swift", replacing: "import CloudKit\n", with: "import CloudKit\nimport TribeBoardJoinKit\n")
        let (_, adopted) = try run(kit.path, in: directory)
        #expect(adopted["container.familyLookup"]?.status == "ok", "\(String(describing: adopted["container.familyLookup"]))")
    }
}
