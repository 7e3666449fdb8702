import Foundation
import Testing
import TribeBoardTestSupport

/// A template with several mistakes is refused once, naming every one
/// with its line (and column where one character is the problem), in text and in --json; still 65.
@Suite struct SheetsTemplateErrorsTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// An office's first draft: an unknown setting, a line that is no setting, a misspelt field in
    /// the title and in the wording, a lone brace and an unclosed one.
    static let draft = """
        organisation: École Jules Ferry
        colour: blue
        title: Bienvenue {famly}
        please print in colour
        ---

        Code {code} }
        {oops
        {kode}
        """

    @Test func everyTemplateProblemIsReportedInOneRun() throws {
        let directory = try TemporaryDirectory("sheets-template-errors")
        try directory.write("in.csv", CSVFixtures.families(count: 2))
        let provisioned = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(provisioned.status == 0, "\(provisioned.stderr)")
        try directory.write("t.txt", Self.draft + "\n")

        let json = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--template", "t.txt", "--json"],
                                         in: directory.path)
        #expect(json.status == 65, "\(json.stderr)")
        let error = try ErrorDocument(json)
        #expect(error.kind == "template.several" && error.status == "dataError" && error.count == 5, "\(error)")
        let problems = try #require(error.problems)
        let places = problems.map { "\($0.kind) \($0.line.map(String.init) ?? "-"):\($0.columnNumber.map(String.init) ?? "-")" }
        #expect(places == ["template.unknownSetting 2:-", "template.syntax 4:-", "template.syntax 7:13", "template.syntax 8:1",
                           "template.unknownPlaceholders -:-"], "\(places)")
        #expect(problems[0].setting == "colour")
        #expect(problems[4].placeholders == ["{famly} (line 3, column 18)", "{kode} (line 9, column 1)"], "\(problems[4])")
        #expect(problems.allSatisfy { !$0.message.isEmpty && error.message.contains($0.message) && $0.exitStatus == 65 })
        #expect(!FileManager.default.fileExists(atPath: directory.file("inv.pdf")), "nothing written")

        let text = try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf", "--template", "t.txt"], in: directory.path)
        #expect(text.status == 65)
        for line in ["the template has 5 problems (nothing was written): (1) template line 2: unknown setting \"colour\"", "template line 4: expected",
                     "(3) template line 7, column 13: a lone \"}\"", "template line 8, column 1: a \"{\" without its \"}\"",
                     "{famly} (line 3, column 18), {kode} (line 9, column 1)"] {
            #expect(text.stderr.contains(line), "\(line): \(text.stderr)")
        }
        #expect(text.stdout.isEmpty)
    }
}
