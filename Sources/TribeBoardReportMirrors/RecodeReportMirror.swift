import Foundation

/// `recode --json`: the new code, its claim, and the commands that reprint and upload it.
package struct RecodeReportMirror: Decodable {
    package let applied: Bool
    package let familyId: String
    package let newCode: String?
    package let claimed: Bool
    package let qrFile: String?
    package let manifest: String?
    package let reprintCommand: String
    package let uploadCommand: String
    package let warning: String
}
