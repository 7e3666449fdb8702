import Testing
import TribeBoardTestSupport
@testable import TribeBoardDomain

@Suite("FieldRules")
struct FieldRulesTests {
    static let column = "family_name"

    func familyNameError(_ raw: String) -> RowError? {
        do {
            _ = try FieldRules.familyName(raw, column: Self.column)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["Müller", "山田", "O'Brien", "García-López", "St. Clair, Jr.", "Smith 2nd", "Ôlafsdóttir"])
    func acceptsFamilyNamesOfAnyScript(name: String) throws {
        #expect(try FieldRules.familyName(name, column: Self.column) == name)
    }

    /// 王, 陈, 김, 박: the app's 2-character rule stands, and the refusal quotes the name and says
    /// the usual way out.
    @Test(arguments: ["王", "김", "X"]) func aOneCharacterNameIsQuotedWithTheWayOut(name: String) throws {
        let message = try #require(familyNameError(name)).localizedDescription
        #expect(message.contains("\"\(name)\"") && message.contains("romanised"), "\(message)")
    }

    @Test func acceptsDecomposedAccents() throws {
        // "Müller" as macOS often writes it: u followed by a combining diaeresis.
        let decomposed = "Mu\u{0308}ller"
        #expect(try FieldRules.familyName(decomposed, column: Self.column) == decomposed)
    }

    @Test func returnsTheTrimmedName() throws {
        #expect(try FieldRules.familyName("  Müller \n", column: Self.column) == "Müller")
    }

    @Test func rejectsTooShortAndTooLongNamesWithTheCount() throws {
        let short = try #require(familyNameError("A"))
        #expect(short.column == Self.column)
        #expect(short.message.contains("has 1"))
        let long = try #require(familyNameError(String(repeating: "a", count: 51)))
        #expect(long.message.contains("has 51"))
        #expect(familyNameError(String(repeating: "a", count: 50)) == nil)
        #expect(familyNameError("Al") == nil)
    }

    @Test func countsCharactersNotBytes() {
        // 50 two-byte letters are 50 characters.
        #expect(familyNameError(String(repeating: "ü", count: 50)) == nil)
        #expect(familyNameError(String(repeating: "ü", count: 51)) != nil)
    }

    @Test func rejectsPunctuationNamingTheCharacter() throws {
        let error = try #require(familyNameError("Fam!ly"))
        #expect(error.message.contains("\"!\""))
        #expect(error.localizedDescription.hasPrefix("family_name: "))
    }

    @Test(arguments: ["Fam\tily", "Fam\nily", "Fam\u{0}ily"])
    func rejectsInvisibleCharactersInside(name: String) throws {
        let error = try #require(familyNameError(name))
        #expect(error.message.contains("invisible character U+00"))
    }

    @Test(arguments: ["", "   ", "\t\n"])
    func rejectsEmptyNames(name: String) throws {
        let error = try #require(familyNameError(name))
        #expect(error.message.contains("empty"))
    }

    @Test func displayNameHasOneToThirtyCharactersAsInTheApp() throws {
        #expect(try FieldRules.displayName(" J ", column: "admin_display_name") == "J")
        #expect(try FieldRules.displayName(String(repeating: "x", count: 30), column: "admin_display_name").count == 30)
        let long = String(repeating: "x", count: 31)
        #expect(throws: RowError(column: "admin_display_name", "\"\(long)\" has 31 characters; the app allows 1 to 30 in a display name")) {
            try FieldRules.displayName(long, column: "admin_display_name")
        }
        #expect(throws: RowError.self) { try FieldRules.displayName("   ", column: "admin_display_name") }
        #expect(throws: RowError.self) { try FieldRules.displayName("Ann\u{7}", column: "admin_display_name") }
    }

    @Test(arguments: ["Mum (Ada)", "Ada & Ben", "Ada 🙂", "Ann!", "a@b"])
    func displayNameRefusesWhatTheAppRefuses(name: String) throws {
        let error = try #require(throws: RowError.self) { try FieldRules.displayName(name, column: "admin_display_name") }
        #expect(error.message.contains("the app allows only letters, digits, spaces and ' - . , in a display name"))
    }

    @Test func appleUserIdHashIsSHA256Hex() throws {
        let lower = String(repeating: "0123456789abcdef", count: 4)
        #expect(try FieldRules.appleUserIdHash(lower, column: "h") == lower)
        #expect(try FieldRules.appleUserIdHash(lower.uppercased(), column: "h") == lower)
        #expect(try FieldRules.appleUserIdHash(" \(lower) ", column: "h") == lower)
    }

    @Test(arguments: [
        String(repeating: "ab", count: 20),          // 40 characters: a SHA-1
        String(repeating: "ab", count: 33),          // 66 characters
        String(repeating: "0123456789abcdeg", count: 4),  // 64 characters with a non-hex letter
        "",
    ])
    func appleUserIdHashRejectsOtherStrings(raw: String) {
        #expect(throws: RowError.self) { try FieldRules.appleUserIdHash(raw, column: "h") }
    }
}
