import Foundation

/// `merge --json`: who moved, and the duplicate's removal.
package struct MergeReportMirror: Decodable {
    package let command: String
    package let applied: Bool
    package let alreadyMerged: Bool
    package let duplicateId: String
    package let keptId: String
    package let members: [Member]
    package let membershipsUploaded: Int
    package var removal: RemoveReportMirror?
    package let duplicateCodeFate: String
    package let reprintCommand: String

    package struct Member: Decodable {
        package let userId: String
        package let displayName: String
        package let role: String
        package let from: String
        package let outcome: String
    }
}
