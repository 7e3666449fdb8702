import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

package enum CodeRepairError: Error, LocalizedError {
    case output(FileSystemError)
    case store(StoreError)
    case codeGeneration(CodeGenerationError)
    case qrCode(QRCodeError)
    /// CloudKit could not be asked to claim the new codes: nothing changed.
    case remote(CloudKitError)
    case claim(CodeClaimError)
    /// The store changed, but some QR codes could not be put in place because of the cause.
    indirect case incomplete(CodeRepairError)

    /// What went wrong, whether or not the store changed.
    package var cause: any Error {
        switch self {
        case .output(let error): return error
        case .store(let error): return error
        case .codeGeneration(let error): return error
        case .qrCode(let error): return error
        case .remote(let error): return error
        case .claim(let error): return error
        case .incomplete(let cause): return cause.cause
        }
    }

    package var errorDescription: String? {
        switch self {
        case .qrCode(let error): return "repair not applied: cannot make a QR code: \(error.localizedDescription)"
        case .output, .store, .codeGeneration, .remote, .claim: return "repair not applied: \(cause.localizedDescription)"
        case .incomplete:
            return "repair applied to the store, but not every file is in place (run the same repair again to finish): \(cause.localizedDescription)"
        }
    }
}

/// The local fix for duplicate codes: in each group the oldest family keeps the code and the
/// newer local families get new ones. CloudKit-only families cannot be changed from here (the
/// toolkit never writes CloudKit directly): they are listed for a person to fix in the app.
package struct CodeRepairReport: Encodable, Sendable {
    package struct Change: Encodable, Sendable {
        package var familyId: String
        package var familyName: String?
        package var oldCode: String
        /// Set once applied.
        package var newCode: String?
        package var keptBy: String
        package var reason: String
        package var qrFile: String?
        /// Not applied: the family's code changed after the audit read it.
        package var skipped: String?
        /// The code as the audit read it (`oldCode` may be masked).
        let expectedCode: String
        /// The new code in full, while a repair is being applied.
        var assignedCode: String?

        enum CodingKeys: String, CodingKey { case familyId, familyName, oldCode, newCode, keptBy, reason, qrFile, skipped }
    }

    package struct ManualFix: Encodable, Sendable {
        package var recordName: String
        package var name: String?
        package var code: String
        package var keptBy: String
    }

    package var applied = false
    package var outputDirectory: String?
    package var manifest: String?
    package var changes: [Change] = []
    package var manual: [ManualFix] = []
    /// Families the store marks uploaded that CloudKit no longer holds: `--apply` marks them for
    /// upload again (with their memberships and profiles); `tribeboard resync` sends them.
    package var reupload: [String] = []
}

struct CodeRepairPlanner {
    let request: AuditRequest

    func plan(_ groups: [DuplicateGroup]) -> CodeRepairReport {
        var report = CodeRepairReport()
        for group in groups {
            let ordered = group.membersOldestFirst
            guard let keeper = ordered.first else { continue }
            for member in ordered.dropFirst() {
                if member.location == .remote {
                    report.manual.append(.init(recordName: member.id, name: member.name, code: request.display(member.code), keptBy: keeper.id))
                } else {
                    report.changes.append(.init(familyId: member.id, familyName: member.name, oldCode: request.display(member.code),
                                                keptBy: keeper.id, reason: group.category.rawValue, expectedCode: member.code))
                }
            }
        }
        return report
    }
}
