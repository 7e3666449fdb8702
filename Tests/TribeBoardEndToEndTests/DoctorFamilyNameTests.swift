import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// `doctor family NAME`: support tickets name families, so a name finds them too, ignoring case
/// and diacritics, as a person types it; several matches are listed, not guessed between.
@Suite struct DoctorFamilyNameTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    func provisioned(_ csv: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("doctor-name")
        try directory.write("in.csv", csv)
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        try #require(result.status == 0, "\(result.stderr)")
        return directory
    }

    func doctor(_ query: String, in directory: TemporaryDirectory) throws -> (Int32, FamilyReportMirror, keys: Set<String>) {
        let result = try ProcessRunner.run(tribeboard, ["doctor", "family", query, "--store", "s.sqlite", "--json"], in: directory.path)
        return (result.status, try result.report(FamilyReportMirror.self), try result.report(JSONKeys.self).keys)
    }

    @Test func oneNameTypedWithoutItsAccentsFindsTheFamily() throws {
        let directory = try provisioned("external_id,family_name,admin_display_name\nT1,Müller,Anna Müller\nT2,Nguyễn,Minh\nT3,Þórsdóttir,Sigga\n")
        let (_, report, _) = try doctor("MULLER", in: directory)
        let family = try #require(report.family, "\(report)")
        #expect(family.name == "Müller" && family.importKey == "ext:T1")
        let (_, vietnamese, _) = try doctor("nguyen", in: directory)
        #expect(vietnamese.family?.name == "Nguyễn")
    }

    /// One letter is not a name search: the answer says so, rather than "no family containing o".
    @Test func aOneLetterQuerySaysNamesNeedTwo() throws {
        let directory = try provisioned("external_id,family_name,admin_display_name\nT1,Olsen,Ola\n")
        let (status, report, _) = try doctor("o", in: directory)
        #expect(status == 1)
        let found = try #require(report.findings.first { $0.id == "family.found" })
        #expect(found.found.contains("at least 2 letters or digits"), "\(found.found)")
        #expect(!found.found.contains("containing"), "\(found.found)")
    }

    @Test func severalMatchesAreListedWithWhatTellsThemApart() throws {
        let directory = try provisioned("external_id,family_name,admin_display_name\nS1,Smith,Jo Smith\nS2,Smithson,Al Smithson\nS3,Naismith,Bo\nK1,Kowalski,Ewa\n")
        let (status, report, keys) = try doctor("smith", in: directory)
        #expect(!keys.contains("family"), "no guess between several families")
        let matches = report.nameMatches
        #expect(Set(matches.compactMap(\.externalId)) == ["S1", "S2", "S3"] && report.nameMatchesTotal == 3)
        #expect(matches.first { $0.externalId == "S1" }?.admin == "Jo Smith")
        // createdAt and id are strings: NameMatch declares them non-optional.
        #expect(matches.allSatisfy { $0.sync == "pending" })
        let found = report.findings.first { $0.id == "family.found" }
        #expect(found?.status == "warning" && status == 0, "a list to choose from is not a failure")
        let (missing, none, _) = try doctor("Dupont", in: directory)
        #expect(missing == 1 && none.nameMatches.isEmpty)
    }

    /// With CloudKit configured, a name two families share is still a list to choose from: CloudKit
    /// is not asked about the name (as if it were a code) and nothing says the family is missing.
    @Test func severalMatchesWithARemoteAreAListNotAFailure() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try provisioned("external_id,family_name,admin_display_name\nM1,Martin,Claire Martin\nM2,Martin,Paul Martin\n")
        let result = try await ProcessRunner.runAsync(tribeboard, ["doctor", "family", "martin", "--store", "s.sqlite", "--json"] + fixture.remoteArguments,
                                                      in: directory.path)
        let report = try result.report(FamilyReportMirror.self)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(report.passed == true)
        #expect(report.remote.status == "notAsked")
        let findings = report.findings
        #expect(!findings.contains { $0.status == "failure" }, "\(findings)")
        #expect(report.nameMatches.count == 2)
    }

    /// Names as phones and tickets write them: a curly apostrophe, no apostrophe, a space for a hyphen.
    @Test func punctuationDoesNotHideAName() throws {
        let directory = try provisioned("external_id,family_name,admin_display_name\nP1,O'Brien-Diallo,Sean\nP2,Émile-Zoë Caron,Léa\n")
        for query in ["obrien", "O\u{2019}Brien", "o brien diallo", "OBRIEN DIALLO"] {
            let (_, report, _) = try doctor(query, in: directory)
            #expect(report.family?.name == "O'Brien-Diallo", "\(query)")
        }
        for query in ["emile zoe", "Emile-Zoe", "zoe caron"] {
            let (_, report, _) = try doctor(query, in: directory)
            #expect(report.family?.name == "Émile-Zoë Caron", "\(query)")
        }
    }
}
