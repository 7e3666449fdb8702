import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardDomain

/// Fields built to pass a character count while being unusable: stacked combining marks.
@Suite("FieldRules: stacked marks")
struct HostileFieldTests {
    @Test func aNameOfTwoLettersAndThousandsOfMarksIsRefused() {
        let zalgo = "Ab" + String(repeating: "\u{0301}", count: 300_000)
        #expect(zalgo.count == 2, "passes a character count")
        #expect(throws: RowError.self) { try FieldRules.familyName(zalgo, column: "family_name") }
        #expect(throws: RowError.self) { try FieldRules.displayName(zalgo, column: "admin_display_name") }
    }

    @Test func oneHeavilyStackedCharacterIsRefused() {
        let stacked = "Smith" + String(repeating: "\u{0308}", count: 20)
        #expect(throws: RowError.self) { try FieldRules.familyName(stacked, column: "family_name") }
    }

    /// Real names with several scalars a character still pass.
    @Test(arguments: ["क्षत्रिय", "ภูมิพล", "Nguyễn Thị Minh", "Mu\u{0308}ller", "श्रीनिवास"])
    func namesOfRealScriptsPass(name: String) throws {
        #expect(try FieldRules.familyName(name, column: "family_name") == name)
    }

    @Test func aHundredThousandUnknownColumnsAreOneWarning() throws {
        let directory = try TemporaryDirectory("many-columns")
        let extra = (0..<100_000).map { "x\($0)" }
        _ = try directory.write("in.csv", (["family_name"] + extra).joined(separator: ",") + "\nSmith" + String(repeating: ",", count: extra.count) + "\n")
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"),
                                           ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr.prefix(500))")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("unknown column") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("count=100000") == true, "\(warnings)")
    }
}
