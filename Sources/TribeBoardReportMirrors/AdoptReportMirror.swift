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
    package var applyCommand: String?
    package var creator: String?
    package var caller: String?
    package let anotherCreator: Bool
    package var warning: String?
}
