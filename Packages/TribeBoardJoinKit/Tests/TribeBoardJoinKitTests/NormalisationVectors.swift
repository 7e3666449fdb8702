import Testing
@testable import TribeBoardJoinKit

/// The normalisation's vectors: input as UTF-8 bytes (hex), expected code or error. The app team
/// can copy this table into their own tests; docs/code-claims.md lists the same cases.
struct NormalisationVectors {
    static let accepted: [(utf8Hex: String, code: String, why: String)] = [
        ("616263323334", "ABC234", "ASCII lower case upper-cased"),
        ("2020414243323334200a", "ABC234", "spaces and a line feed trimmed"),
        ("e2808b414243323334e2808b", "ABC234", "U+200B trimmed at both ends"),
        ("efbbbf414243323334", "ABC234", "a leading BOM (U+FEFF) trimmed"),
        ("e38080414243323334e38080", "ABC234", "U+3000 ideographic space trimmed"),
        ("c2a0414243323334", "ABC234", "U+00A0 no-break space trimmed"),
        ("efbca1efbca2efbca3efbc92efbc93efbc94", "ABC234", "full-width letters and digits folded"),
        ("efbd81efbd82efbd83323334", "ABC234", "full-width lower case folded and upper-cased"),
        ("696969696969", "IIIIII", "ASCII i is I in every locale (never U+0130)"),
        ("c4b1c4b1c4b1c4b1c4b1c4b1", "IIIIII", "Turkish dotless ı (U+0131) is I"),
        ("c4b0c4b0c4b0c4b0c4b0c4b0", "IIIIII", "Turkish dotted İ (U+0130) is I"),
        ("4142434445464748", "ABCDEFGH", "8 characters"),
    ]

    static let refused: [(utf8Hex: String, error: FamilyCodeTextError, why: String)] = [
        ("4142433233", .wrongLength(5), "5 characters"),
        ("414243444546474849", .wrongLength(9), "9 characters"),
        ("", .wrongLength(0), "empty"),
        ("e2808b", .wrongLength(0), "only U+200B"),
        ("414243e2808b323334", .invalidCharacter("\u{200B}"), "U+200B inside is kept, and refused"),
        ("41424320323334", .invalidCharacter(" "), "a space inside"),
        ("4142432d323334", .invalidCharacter("-"), "a hyphen inside"),
        ("c39f41424332", .invalidCharacter("ß"), "ß is not SS (that would change the length)"),
        ("c39c42433233", .invalidCharacter("Ü"), "no letters beyond A-Z"),
        ("d090d092d0a1323334", .invalidCharacter("А"), "Cyrillic А is not Latin A"),
        ("d9a1d9a2d9a3d9a4d9a5d9a6", .invalidCharacter("١"), "Arabic-Indic digits are not folded"),
        ("41424332333441cc81", .invalidCharacter("\u{0301}"), "a combining accent"),
    ]

    static func string(_ hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: accepted.map { [$0.utf8Hex, $0.code] })
    func normalisesAccepted(_ vector: [String]) throws {
        #expect(try FamilyCodeText.normalise(Self.string(vector[0])) == vector[1])
    }

    @Test(arguments: refused.map(\.utf8Hex))
    func refusesWithItsReason(_ hex: String) throws {
        let expected = try #require(Self.refused.first { $0.utf8Hex == hex }?.error)
        #expect(throws: expected) { try FamilyCodeText.normalise(Self.string(hex)) }
    }

    @Test func everyResultIsWireForm() throws {
        for vector in Self.accepted {
            #expect(FamilyCodeText.isWireForm(try FamilyCodeText.normalise(Self.string(vector.utf8Hex))))
        }
    }
}
