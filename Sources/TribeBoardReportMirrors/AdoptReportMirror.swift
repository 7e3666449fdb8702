import Foundation

/// `adopt --json`: both versions, and what the store took.
package struct AdoptReportMirror: Decodable {
    package let command: String
    package let applied: Bool
    package let familyId: String
    package let cloudKitName: String
    package let codeChanged: Bool
    package let members: [String]
    package let setAsideEnded: Bool
    package var reprintCommand: String?
}
