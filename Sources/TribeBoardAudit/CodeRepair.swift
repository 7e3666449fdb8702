import Foundation
import GRDB
import Logging
import TribeBoardStore
import TribeBoardSupport

enum CodeRepairError: Error, LocalizedError {
    case output(FileSystemError)
    case store(StoreError)
    case codeGeneration(String)
    case qrCode(String)
    /// The store changed, but some QR codes could not be put in place.
    case incomplete(String)

    package var errorDescription: String? {
        switch self {
        case .output(let error): return "repair not applied: \(error.localizedDescription)"
        case .store(let error): return "repair not applied: \(error.localizedDescription)"
        case .codeGeneration(let reason): return "repair not applied: \(reason)"
        case .qrCode(let reason): return "repair not applied: cannot make a QR code: \(reason)"
        case .incomplete(let reason): return "repair applied to the store, but not every file is in place (run the same repair again to finish): \(reason)"
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
