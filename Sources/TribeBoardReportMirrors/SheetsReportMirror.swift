import Foundation

/// `sheets --verify FILE.pdf --json`.
package struct SheetsVerificationMirror: Decodable {
    package let pdf: String
    package let pages: Int
    package let cards: Int
    package let failed: Int
}

/// `sheets --json`: what was drawn, cut and shrunk.
package struct SheetsReportMirror: Decodable {
    package let invitations: Int
    package let pages: Int
    package let mode: String
    package let shrunk: Int
    package let cuts: Cuts
    package var tallerPages: Int?
    package var output: String?
    package var preview: String?
    package var manifestCheck: ManifestCheck?
    package var missingCharacters: MissingCharacters?
    /// Cards printed with codes no CloudKit claim holds (no remote, or --include-unclaimed).
    package var unclaimedPrinted: Int?

    package struct Cuts: Decodable {
        package let invitations: Int
        package let fields: [String: Int]
        package let first: [Family]
    }

    package struct Family: Decodable {
        package let familyId: String
        /// For a cut: the fields cut, and for each "data" or "template".
        package var fields: [String]?
        package var causes: [String: String]?
    }

    package struct MissingCharacters: Decodable {
        package let invitations: Int
        package let first: [Missing]
    }

    package struct Missing: Decodable {
        package let familyId: String
        package let familyName: String
        package let fields: [String]
        /// "U+1E290 TOTO LETTER PA"
        package let characters: [String]
    }

    package struct ManifestCheck: Decodable {
        package let outdated: Int
        package let first: [Family]
    }
}
