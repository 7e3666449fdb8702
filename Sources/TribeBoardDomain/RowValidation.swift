import Foundation
import TribeBoardJoinKit
import TribeBoardSupport

/// A problem with one CSV row, naming the column so an operator can fix the file.
package struct RowError: Error, Equatable, Sendable, LocalizedError {
    package let column: String?
    package let message: String

    package init(column: String?, _ message: String) {
        self.column = column
        self.message = message
    }

    package var errorDescription: String? {
        column.map { "\($0): \(message)" } ?? message
    }
}

/// The app's validation rules (`Validation.validateFamilyName`, `validateDisplayName`; a copy is in
/// Tests/Fixtures/app/), in their strict reading: what passes here passes the app's validators.
package enum FieldRules {
    static let familyNameLengths = AppRules.familyNameLengths
    static let displayNameLengths = AppRules.displayNameLengths
    static let namePunctuation: Set<Unicode.Scalar> = [" ", "'", "-", ".", ","]
    static let allowedInNames = "letters, digits, spaces and ' - . ,"

    /// Letters of any script, digits, spaces and `' - . ,`; 2 to 50 characters after trimming.
    package static func familyName(_ raw: String, column: String) throws(RowError) -> String {
        let name = raw.trimmed
        guard !name.isEmpty else { throw RowError(column: column, "is empty") }
        try checkStacking(name, column: column)
        guard familyNameLengths.contains(name.count) else {
            // One-character names (王, 김, 박) are common: the app's rule stands, and the usual way
            // out is said, with the name quoted so the row can be found.
            if name.count == 1 {
                throw RowError(
                    column: column,
                    "\"\(name)\" has 1 character; the app needs 2 to 50: add its "
                        + "romanised form beside it, as is usual (\"王 Wang\", \"김 Kim\")")
            }
            throw RowError(column: column, "must have 2 to 50 characters, has \(name.count)")
        }
        for scalar in name.unicodeScalars where !isAllowedInName(scalar) {
            throw RowError(column: column, "contains \(describe(scalar)); the app allows only \(allowedInNames) in a family name")
        }
        return name
    }

    /// Scalars a name may have: 50 characters of any script the app accepts stay far below it
    /// (a Devanagari conjunct or a flag is a few scalars), while a name of 2 letters and 300,000
    /// combining marks would pass a character count and break every screen that shows it.
    static let maximumScalars = 400
    static let maximumScalarsPerCharacter = 12

    private static func checkStacking(_ name: String, column: String) throws(RowError) {
        let scalars = name.unicodeScalars.count
        guard scalars <= maximumScalars else {
            throw RowError(column: column, "is made of \(scalars) Unicode scalars (combining marks included); at most \(maximumScalars) are accepted")
        }
        if let stacked = name.first(where: { $0.unicodeScalars.count > maximumScalarsPerCharacter })
        {
            throw RowError(
                column: column,
                "has a character made of \(stacked.unicodeScalars.count) scalars "
                    + "(stacked combining marks); at most \(maximumScalarsPerCharacter) are accepted"
            )
        }
    }

    /// The app's display-name rule: 1 to 30 characters after trimming, of the same characters as
    /// a family name.
    package static func displayName(_ raw: String, column: String) throws(RowError) -> String {
        let name = raw.trimmed
        try checkStacking(name, column: column)
        guard displayNameLengths.contains(name.count) else {
            throw RowError(
                column: column,
                "\"\(name)\" has \(name.count) characters; the app allows 1 to 30 in a display name"
            )
        }
        for scalar in name.unicodeScalars where !isAllowedInName(scalar) {
            throw RowError(column: column, "contains \(describe(scalar)); the app allows only \(allowedInNames) in a display name")
        }
        return name
    }

    /// The lowercase hex SHA-256 of the Apple user id. Upper-case hex is the same hash and is
    /// lower-cased; anything else (the app tolerates 10+ characters) is refused in the strict
    /// reading.
    package static func appleUserIdHash(_ raw: String, column: String) throws(RowError) -> String {
        let hash = raw.trimmed.lowercased()
        guard hash.count == 64,
            hash.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else {
            throw RowError(column: column, "must be a SHA-256 in hex (64 characters of 0-9 a-f)")
        }
        return hash
    }

    static func isAllowedInName(_ scalar: Unicode.Scalar) -> Bool {
        namePunctuation.contains(scalar)
            || CharacterSet.letters.contains(scalar)
            || CharacterSet.decimalDigits.contains(scalar)
    }

    package static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        if CharacterSet.controlCharacters.contains(scalar)
            || CharacterSet.whitespacesAndNewlines.contains(scalar)
        {
            return "the invisible character \(hex)"
        }
        return "\"\(Character(scalar))\" (\(hex))"
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
