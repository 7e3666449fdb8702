import Foundation
import Testing
import TribeBoardJoinKit
import TribeBoardTestSupport
@testable import TribeBoardDomain

@Suite("FamilyCode(validating:)")
struct FamilyCodeTests {
    @Test func trimsAndUpperCases() throws {
        #expect(try FamilyCode(validating: "  abc234 ").value == "ABC234")
        #expect(try FamilyCode(validating: "\tk7q9m2x\n").value == "K7Q9M2X")
    }

    @Test(arguments: ["ABC234", "ABC2345", "ABC23456"])
    func acceptsSixToEightCharacters(raw: String) throws {
        #expect(try FamilyCode(validating: raw).value == raw)
    }

    @Test func rejectsFiveAndNineCharacters() {
        #expect(throws: FamilyCodeFormatError.wrongLength(5)) { try FamilyCode(validating: "ABC23") }
        #expect(throws: FamilyCodeFormatError.wrongLength(9)) { try FamilyCode(validating: "ABC234567") }
        // The length is counted after trimming.
        #expect(throws: FamilyCodeFormatError.wrongLength(5)) { try FamilyCode(validating: "   ABC23   ") }
    }

    @Test func rejectsCharactersOutsideAToZAndDigits() {
        #expect(throws: FamilyCodeFormatError.invalidCharacter("-")) { try FamilyCode(validating: "ABC-23") }
        #expect(throws: FamilyCodeFormatError.invalidCharacter("Ä")) { try FamilyCode(validating: "ÄBC234") }
        #expect(throws: FamilyCodeFormatError.invalidCharacter(" ")) { try FamilyCode(validating: "ABC 234") }
    }

    @Test func acceptsLookAlikesInPreassignedCodes() throws {
        // Codes created by the app may contain 0, O, 1 and I; only generated codes avoid them.
        #expect(try FamilyCode(validating: "0O1I23").value == "0O1I23")
        #expect(try FamilyCode(validating: "io10ab").value == "IO10AB")
    }

    @Test func descriptionMasksTheCode() throws {
        let code = try FamilyCode(validating: "K7Q9M2X8")
        for shown in [code.description, "\(code)", String(describing: code), String(reflecting: code)] {
            #expect(!shown.contains("K7Q9M2X8"))
            #expect(!shown.contains("Q9M2X8"))
        }
        #expect(code.description.hasPrefix("K7"))
        #expect(code.description.count == 8)
    }

    @Test func errorMessagesNameTheProblem() {
        #expect(FamilyCodeFormatError.wrongLength(5).localizedDescription.contains("5"))
        #expect(FamilyCodeFormatError.invalidCharacter("-").localizedDescription.contains("\"-\""))
    }
}

/// The family code's rules in one place: the wire format, the key codes are grouped by, the
/// lengths, all the join kit's (the app's).
struct FamilyCodeRulesTests {
    static let samples = ["QX7K2M", "QX7K2M9A", "qx7k2m", "QX7K2", "QX7K2M9AB", "QX7K-2M", " QX7K2M", "ＱＸ７Ｋ２Ｍ", "QX7K2Mİ",
                          "ÄBC234", "", "QX7K2M\u{200B}", "12345678"]

    @Test func theWireFormatIsTheKits() {
        for sample in Self.samples {
            #expect(FamilyCode.isWireFormat(sample) == FamilyCodeText.isWireForm(sample), "\(sample)")
        }
        #expect(FamilyCode.allowedLengths == FamilyCodeText.allowedLengths)
        #expect(FamilyCode.allowedLengthsList == "6, 7 or 8" && FamilyCode.allowedLengthsText == "6 to 8")
    }

    /// The pattern messages print is the rule checked: each sample matches it exactly when it is
    /// in wire format.
    @Test func thePrintedPatternIsTheWireFormat() throws {
        #expect(FamilyCode.wireFormatPattern == "^[A-Z0-9]{6,8}$")
        let pattern = try NSRegularExpression(pattern: FamilyCode.wireFormatPattern)
        for sample in Self.samples {
            let matches = pattern.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil
            #expect(matches == FamilyCode.isWireFormat(sample), "\(sample)")
        }
    }

    /// Codes a person takes for the same have one key: the code the app finds for them.
    @Test func codesThePersonTakesForTheSameShareAKey() {
        #expect(FamilyCode.key("qx7k2m") == "QX7K2M")
        #expect(FamilyCode.key("ＱＸ７Ｋ２Ｍ") == "QX7K2M")
        #expect(FamilyCode.key("\u{200B}QX7K2M\u{FEFF}") == "QX7K2M")
        // Text that is no code still meets its look-alikes, trimmed and upper-cased.
        #expect(FamilyCode.key(" qx7-k2 ") == "QX7-K2")
        #expect(FamilyCode.normalised("qx7-k2") == nil)
    }

    @Test func aQueryIsTrimmedAsTheKitTrimsACode() {
        let query = FamilyQuery("\u{200B} qx7k2m9a\u{2060}\n")
        #expect(query.typed == "qx7k2m9a" && query.code == "QX7K2M9A" && query.recordID == "QX7K2M9A")
        #expect(FamilyQuery("\u{200B}\u{200B}").typed == "")
    }
}
