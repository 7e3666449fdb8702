import Foundation

/// A new family that matches another on name and admin: the same parent registering twice from a
/// form, or two parents of one name. Warned about (created anyway) or, with
/// `--skip-possible-duplicates`, skipped.
package struct PossibleDuplicate: Encodable, Sendable, Equatable {
    package let line: Int
    package let externalId: String?
    package let familyName: String
    /// Whether the row was left out (`--skip-possible-duplicates`) rather than created.
    package let skipped: Bool
    package let matches: Match
    /// The command that shows both families side by side.
    package let look: String

    package init(
        line: Int, externalId: String?, familyName: String, skipped: Bool, matches: Match,
        look: String
    ) {
        self.line = line
        self.externalId = externalId
        self.familyName = familyName
        self.skipped = skipped
        self.matches = matches
        self.look = look
    }

    package struct Match: Encodable, Sendable, Equatable {
        /// `store` (a family already there) or `file` (an earlier row of the same CSV).
        package let source: String
        package let familyId: String?
        package let line: Int?
        package let externalId: String?
        package let familyName: String

        package init(
            source: String, familyId: String?, line: Int?, externalId: String?, familyName: String
        ) {
            self.source = source
            self.familyId = familyId
            self.line = line
            self.externalId = externalId
            self.familyName = familyName
        }
    }

    /// "line 3 (ext F-1)" or "family 1F2E… (ext F-1)": what a warning names.
    package var matchDescription: String {
        let what =
            matches.source == "file"
            ? "line \(matches.line ?? 0) of this file"
            : "family \(matches.familyId ?? "?") in the store"
        return what + (matches.externalId.map { " (external_id \($0))" } ?? "")
    }
}
