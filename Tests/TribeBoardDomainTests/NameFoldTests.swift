import Foundation
import Testing
@testable import TribeBoardDomain

/// The fold that tells two spellings of one name apart from two names (possible duplicates).
@Suite struct NameFoldTests {
    @Test(arguments: [("Lefèvre", "LEFEVRE "), ("  helene\t LEFEVRE", "Hélène Lefèvre"), ("Ｍｕｌｌｅｒ", "müller"),
                      ("Zoe\u{0308}", "ZOË"), ("Nguyễn  Văn", "nguyen van")])
    func spellingsOfOneNameFoldAlike(a: String, b: String) {
        #expect(NameFold.fold(a) == NameFold.fold(b))
    }

    @Test func differentNamesStayApart() {
        #expect(NameFold.fold("Lefèvre") != NameFold.fold("Lefebvre"))
        #expect(NameFold.fold("Anne Marie") != NameFold.fold("Annemarie"))
    }

    /// Plain ASCII takes a fast path: it must fold exactly as Foundation's path does.
    @Test func theASCIIPathAgreesWithFoundation() {
        for text in ["  Mixed CASE\tname  ", "O'Brien-Smith, Jr.", "a\r\nb", "@[`{~"] {
            let foundation = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(NameFold.fold(text) == foundation, "\(text)")
        }
    }
}

extension NameFoldTests {
    /// Precomposed Latin letters take a table: every one of them folds as Foundation folds it,
    /// alone and inside a name.
    @Test func theLatinTableAgreesWithFoundation() {
        for range in NameFold.LatinTable.ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let name = "Ab " + String(Character(scalar)) + "cD  e"
                #expect(NameFold.fold(name) == NameFold.foundationFold(name), "U+\(String(value, radix: 16))")
            }
        }
    }
}
