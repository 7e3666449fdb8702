import Foundation
import GRDB
import Logging
import TribeBoardStore
import TribeBoardSupport

public enum CodeRepairError: Error, LocalizedError {
    case output(FileSystemError)
    case store(StoreError)
    case codeGeneration(String)
    case qrCode(String)
    /// The store changed, but some QR codes could not be put in place.
    case incomplete(String)

    public var errorDescription: String? {
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
public struct CodeRepairReport: Encodable, Sendable {
    public struct Change: Encodable, Sendable {
        public var familyId: String
        public var familyName: String?
        public var oldCode: String
        /// Set once applied.
        public var newCode: String?
        public var keptBy: String
        public var reason: String
        public var qrFile: String?
        /// Not applied: the family's code changed after the audit read it.
        public var skipped: String?
        /// The code as the audit read it (`oldCode` may be masked).
        let expectedCode: String
        /// The new code in full, while a repair is being applied.
        var assignedCode: String?

        enum CodingKeys: String, CodingKey { case familyId, familyName, oldCode, newCode, keptBy, reason, qrFile, skipped }
    }

    public struct ManualFix: Encodable, Sendable {
        public var recordName: String
        public var name: String?
        public var code: String
        public var keptBy: String
    }

    public var applied = false
    public var outputDirectory: String?
    public var manifest: String?
    public var changes: [Change] = []
    public var manual: [ManualFix] = []
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
