import Testing
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
